/**
 * Which URLs the server may fetch: the private-network policy, checked before any fetch or browser
 * task, and what a refusal means for the caller.
 */
export { createUrlPolicy } from './create-url-policy';
export type { LookupFn, UrlPolicy, UrlRefusalReason, UrlVerdict } from './create-url-policy';
export { resolveHost, systemLookup } from './resolve-host';
export { urlRefusalError } from './url-refusal-error';
