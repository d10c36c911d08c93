/**
 * The way out for launched browsers: a local proxy that holds every connection a browser makes to
 * the URL policy, and the host-resolver rules that send the browser's names through it. Apart from
 * the server's egress so that a start, which launches browsers first, does not load its client.
 */
export { hostResolverRulesLookup } from './host-resolver-rules-lookup';
export { startBrowserEgressProxy } from './start-browser-egress-proxy';
export type { BrowserEgressProxy } from './start-browser-egress-proxy';
