import type { Config } from '../config';
import type { Log } from '../log';
import { type ProxyPool, createProxyPool } from './create-proxy-pool';
import { loadProxyPool } from './load-proxy-pool';

/**
 * The pool PROXY_POOL and PROXY_POOL_FILE describe, its health checks started; undefined when
 * neither is set. Throws ProxyPoolConfigError (naming entries by place, never by text) at start.
 */
export function proxyPoolFromConfig(config: Config, log: Log): ProxyPool | undefined {
  const entries = loadProxyPool({ list: config.PROXY_POOL, filePath: config.PROXY_POOL_FILE });
  if (entries.length === 0) return undefined;
  const pool = createProxyPool({
    entries,
    log,
    checkTarget: config.PROXY_POOL_CHECK_TARGET,
    checkIntervalMs: config.PROXY_POOL_CHECK_INTERVAL_SECONDS * 1000,
    stickyMs: config.PROXY_POOL_STICKY_SECONDS * 1000,
  });
  log.info('proxy pool', {
    proxies: entries.map((entry) =>
      entry.country === undefined ? entry.id : `${entry.id} ${entry.country}`,
    ),
  });
  return pool;
}
