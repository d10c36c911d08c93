/**
 * Which URLs the server may fetch: the private-network policy, checked before any fetch or browser
 * task.
 */
export { createUrlPolicy } from './create-url-policy';
export type { LookupFn, UrlPolicy } from './create-url-policy';
export { resolveHost, systemLookup } from './resolve-host';
