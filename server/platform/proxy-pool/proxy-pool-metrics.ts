import { Counter, Gauge, type Registry } from 'prom-client';
import type { ProxyPool } from './create-proxy-pool';

/**
 * `tabhive_proxy_requests_total{proxy, outcome}` (success, failure, blocked) and
 * `tabhive_proxy_healthy{proxy}`, labelled by the proxy's `host:port`, never its credentials.
 */
export function registerProxyPoolMetrics(registry: Registry, pool: ProxyPool): void {
  const outcomes = new Counter({
    name: 'tabhive_proxy_requests_total',
    help: 'Connections and page attempts through each pool proxy, by outcome (success, failure, blocked).',
    labelNames: ['proxy', 'country', 'outcome'] as const,
    registers: [registry],
  });
  pool.onOutcome((entry, outcome) =>
    outcomes.inc({ proxy: entry.id, country: entry.country ?? '', outcome }),
  );
  new Gauge({
    name: 'tabhive_proxy_healthy',
    help: 'Whether each pool proxy passed its last health check (1) or not (0).',
    labelNames: ['proxy', 'country'] as const,
    registers: [registry],
    collect() {
      for (const stat of pool.stats())
        this.set({ proxy: stat.id, country: stat.country ?? '' }, stat.healthy ? 1 : 0);
    },
  });
}
