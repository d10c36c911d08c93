/** Map: a site's URLs from its sitemaps, its links and the map index. */
export { MAP_CREDITS, createMapCharging } from './charge-map';
export { createMapIndexRecorder } from './create-map-index-recorder';
export { createMapper } from './create-mapper';
export type { Mapper } from './create-mapper';
export { siteMapOptions } from './map-options';
export { mapOptionsV1, mapOptionsV2 } from './map-request-options';
export { inputUrlFirst } from './input-url-first';
export { normalizeMapUrl } from './normalize-map-url';
