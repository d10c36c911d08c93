/**
 * Emit: what a finished scrape leaves behind: the result, the map and search indexes through their
 * port, interact options, metrics.
 */
export { countScrapedPage } from './count-scraped-pages';
export type { ScrapeMetrics } from './count-scraped-pages';
export { createPageEmitter } from './emit-page';
export type { EmitPlan } from './emit-page';
export { createInteractOptionsMemory, rememberInteractOptions } from './interact-options';
export type { InteractOptions, InteractOptionsMemory } from './interact-options';
export type { MapIndexSink, PageForMapIndex, PageForSearchIndex, SearchIndexSink } from './page-indexes';
