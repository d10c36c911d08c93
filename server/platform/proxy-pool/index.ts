/**
 * The proxy pool (docs/browser-control.md#proxy-pool): upstream proxies from PROXY_POOL or
 * PROXY_POOL_FILE, chosen by destination host and country, rotated on failure and on block,
 * health-checked, counted in /metrics.
 */
export { createProxyPool, noProxyForCountry } from './create-proxy-pool';
export type { ProxyOutcome, ProxyPool, ProxyStat } from './create-proxy-pool';
export { loadProxyPool } from './load-proxy-pool';
export { proxyPoolFromConfig } from './proxy-pool-from-config';
export { ProxyPoolConfigError, parseProxyPool } from './parse-proxy-pool';
export type { ProxyEntry } from './parse-proxy-pool';
export { registerProxyPoolMetrics } from './proxy-pool-metrics';
export { isEgressProxyFailureStatus, looksLikeProxyFailure } from './proxy-failure';
export { withProxyRotation } from './with-proxy-rotation';
export type { CheckTarget } from './check-proxy';
