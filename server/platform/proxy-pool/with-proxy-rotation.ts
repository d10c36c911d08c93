import { TabhiveError } from '../errors';
import type { ProxyPool } from './create-proxy-pool';

const proxiesFailed = (host: string, tried: number) =>
  new TabhiveError(
    'unavailable',
    `No proxy of the pool could reach ${host} (${tried} tried): they refused or failed the connection.`,
    { code: 'PROXY_FAILED' },
  );

/** What the rotation needs of a page task: its URL and requested country, and its deadline. */
interface RotatableSpec {
  url: string;
  location?: { country?: string | undefined } | undefined;
}
interface RotatableOptions {
  timeoutMs: number;
  /** Stealth browsers have STEALTH_PROXY_URL of their own, not the pool. */
  browserClass?: string | undefined;
  /** Tasks of a donated browser or a session's own browser do not go through the pool. */
  donatedOnly?: boolean | undefined;
  ownBrowser?: boolean | undefined;
}

/**
 * A page-task runner whose tasks go through the pool: the task's host is pinned to a proxy of
 * `location.country` first (an error when the pool has none), and a task that fails or whose
 * page looks blocked runs again on the host's next proxy, while its deadline lasts and untried
 * proxies remain. The last attempt's blocked page or error stands; when the last proxy failed
 * the connection itself, a PROXY_FAILED error.
 */
export function withProxyRotation<Spec extends RotatableSpec, Options extends RotatableOptions, Result>(
  run: (spec: Spec, options: Options) => Promise<Result>,
  pool: ProxyPool,
  {
    verdict,
    proxyFailure,
  }: {
    /**
     * `blocked` for a page that looks blocked, `failure` for the egress proxy's own error page
     * (proxy-chain's 59x statuses: the upstream refused, reset or failed authentication).
     */
    verdict: (result: Result) => 'ok' | 'blocked' | 'failure';
    /** Whether an error may be the proxy's doing (a connection or tunnel error), not the page's. */
    proxyFailure: (error: unknown) => boolean;
  },
): (spec: Spec, options: Options) => Promise<Result> {
  return async (spec, options) => {
    if (options.donatedOnly === true || options.ownBrowser === true || options.browserClass === 'stealth') {
      return run(spec, options);
    }
    const host = URL.parse(spec.url)?.hostname;
    if (host === undefined || host === '') return run(spec, options);
    const startedAt = Date.now();
    let proxy = pool.claim(host, spec.location?.country);
    const tried = new Set<string>();
    for (;;) {
      tried.add(proxy.id);
      const remainingMs = options.timeoutMs - (Date.now() - startedAt);
      let outcome: { ok: true; result: Result } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, result: await run(spec, { ...options, timeoutMs: Math.max(1, remainingMs) }) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      const judged = outcome.ok ? verdict(outcome.result) : 'failure';
      if (outcome.ok && judged === 'ok') return outcome.result;
      if (!outcome.ok && !proxyFailure(outcome.error)) throw outcome.error;
      // A page attempt; the egress proxies count its connections too, when they close.
      pool.record(proxy.id, judged === 'blocked' ? 'blocked' : 'failure');
      const next = options.timeoutMs - (Date.now() - startedAt) > 0 ? pool.rotate(host, tried) : undefined;
      if (next === undefined) {
        // A blocked page stands as the page it is; the egress proxy's own error page is no page.
        if (outcome.ok && judged === 'blocked') return outcome.result;
        if (outcome.ok) throw proxiesFailed(host, tried.size);
        throw outcome.error;
      }
      proxy = next;
    }
  };
}
