import { TabhiveError } from '../errors';
import type { Log } from '../log';
import { type CheckTarget, checkProxy } from './check-proxy';
import type { ProxyEntry } from './parse-proxy-pool';

export type ProxyOutcome = 'success' | 'failure' | 'blocked';

/** One proxy as the console and /metrics show it: no URL, no credentials. */
export interface ProxyStat {
  id: string;
  protocol: ProxyEntry['protocol'];
  country: string | null;
  healthy: boolean;
  successes: number;
  failures: number;
  blocked: number;
  /** Why the last health check failed, in words that never hold the proxy's URL. */
  lastError: string | null;
}

export interface ProxyPool {
  readonly size: number;
  /**
   * The proxy connections to `host` go through now. A host keeps its proxy (stickiness: a crawl's
   * pages, a session's or a profile's visits to the site) until it fails, is rotated or has not
   * been used for the sticky time.
   */
  proxyFor(host: string): ProxyEntry;
  /**
   * Pins `host` to a proxy of `country` (or keeps the one it has if it is of that country).
   * Throws a NO_PROXY_FOR_COUNTRY error when the pool has none of that country.
   */
  claim(host: string, country: string | undefined): ProxyEntry;
  /** Moves `host` to the next proxy not in `tried`, of the same country; undefined when none is left. */
  rotate(host: string, tried: ReadonlySet<string>): ProxyEntry | undefined;
  /** Counts an outcome; a failure also moves the hosts on that proxy on at their next use. */
  record(id: string, outcome: ProxyOutcome): void;
  /** Called with each counted outcome (the /metrics counter). */
  onOutcome(listener: (entry: ProxyEntry, outcome: ProxyOutcome) => void): void;
  stats(): ProxyStat[];
  /** Runs one round of health checks now. */
  checkNow(): Promise<void>;
  start(): void;
  close(): void;
}

interface State {
  entry: ProxyEntry;
  healthy: boolean;
  successes: number;
  failures: number;
  blocked: number;
  lastError: string | null;
}

interface Route {
  proxyId: string;
  /** The country a claim asked for, kept when the route rotates. */
  country: string | undefined;
  usedAt: number;
}

export const noProxyForCountry = (country: string) =>
  new TabhiveError(
    'invalid-input',
    `No proxy of the pool is in country ${country}: location.country needs a PROXY_POOL entry of that country.`,
    { code: 'NO_PROXY_FOR_COUNTRY' },
  );

/** Firecrawl's default location, which asks for no country in particular. */
const anyCountry = (country: string | undefined) =>
  country === undefined || country.toUpperCase() === 'US-GENERIC' ? undefined : country.toUpperCase();

/**
 * The upstream proxies every launched browser's egress proxy and the server's fast-path fetches
 * go through (docs/browser-control.md#proxy-pool). Routing is by destination host: one proxy per
 * host, sticky, in turn across the healthy proxies; a country's claim pins the host to a proxy of
 * that country. Health checks run every `checkIntervalMs` (a TCP connect, or a tunnel to
 * `checkTarget`); an unhealthy proxy is skipped until a check passes again, unless every proxy
 * that fits is unhealthy, when they are still tried rather than failing at once.
 */
export function createProxyPool({
  entries,
  log,
  checkTarget,
  checkIntervalMs = 30_000,
  checkTimeoutMs = 5_000,
  stickyMs = 10 * 60_000,
  now = Date.now,
}: {
  entries: readonly ProxyEntry[];
  log: Log;
  checkTarget?: CheckTarget | undefined;
  checkIntervalMs?: number;
  checkTimeoutMs?: number;
  stickyMs?: number;
  now?: () => number;
}): ProxyPool {
  if (entries.length === 0) throw new Error('a proxy pool needs at least one proxy');
  const states = new Map<string, State>(
    entries.map((entry) => [
      entry.id,
      { entry, healthy: true, successes: 0, failures: 0, blocked: 0, lastError: null },
    ]),
  );
  const routes = new Map<string, Route>();
  const listeners: Array<(entry: ProxyEntry, outcome: ProxyOutcome) => void> = [];
  let turn = 0;
  let timer: NodeJS.Timeout | undefined;

  const fits = (state: State, country: string | undefined) =>
    country === undefined || state.entry.country === country;

  /** The proxies that fit and are not in `skip`: the healthy ones, or all of them when none is. */
  const candidates = (country: string | undefined, skip: ReadonlySet<string>): State[] => {
    const fitting = [...states.values()].filter((state) => fits(state, country) && !skip.has(state.entry.id));
    const healthy = fitting.filter((state) => state.healthy);
    return healthy.length > 0 ? healthy : fitting;
  };

  /** The next proxy in turn among the candidates. */
  const next = (country: string | undefined, skip: ReadonlySet<string>): State | undefined => {
    const from = candidates(country, skip);
    if (from.length === 0) return undefined;
    const chosen = from[turn % from.length];
    turn += 1;
    return chosen;
  };

  const route = (host: string, country: string | undefined, skip: ReadonlySet<string> = new Set()) => {
    const chosen = next(country, skip);
    if (chosen === undefined) return undefined;
    routes.set(host, { proxyId: chosen.entry.id, country, usedAt: now() });
    return chosen.entry;
  };

  /** The host's route while it holds: not expired, and not on an ill proxy while a well one fits. */
  const current = (host: string): { route: Route; state: State } | undefined => {
    const existing = routes.get(host);
    const state = existing === undefined ? undefined : states.get(existing.proxyId);
    if (existing === undefined || state === undefined) return undefined;
    const expired = now() - existing.usedAt > stickyMs;
    const replaceable =
      !state.healthy &&
      candidates(existing.country, new Set([state.entry.id])).some((other) => other.healthy);
    if (expired || replaceable) {
      routes.delete(host);
      return undefined;
    }
    existing.usedAt = now();
    return { route: existing, state };
  };

  const check = async (state: State) => {
    try {
      await checkProxy(state.entry, checkTarget, checkTimeoutMs);
      if (!state.healthy) log.info('proxy healthy again', { proxy: state.entry.id });
      state.healthy = true;
      state.lastError = null;
    } catch (err) {
      if (state.healthy)
        log.warn('proxy unhealthy', { proxy: state.entry.id, reason: (err as Error).message });
      state.healthy = false;
      state.lastError = (err as Error).message;
    }
  };

  const pool: ProxyPool = {
    size: entries.length,

    proxyFor(host) {
      const key = host.toLowerCase();
      // A host moved off its proxy keeps the country it was claimed for, when one is left.
      const country = routes.get(key)?.country;
      // Every host fits some proxy when no country is asked: the last `route` always finds one.
      return current(key)?.state.entry ?? route(key, country) ?? route(key, undefined)!;
    },

    claim(host, requested) {
      const country = anyCountry(requested);
      const key = host.toLowerCase();
      if (country === undefined) return pool.proxyFor(key);
      if (![...states.values()].some((state) => state.entry.country === country)) {
        throw noProxyForCountry(country);
      }
      const kept = current(key);
      if (kept !== undefined && kept.state.entry.country === country) {
        kept.route.country = country;
        return kept.state.entry;
      }
      return route(key, country)!;
    },

    rotate(host, tried) {
      const key = host.toLowerCase();
      const country = routes.get(key)?.country;
      return route(key, country, tried);
    },

    record(id, outcome) {
      const state = states.get(id);
      if (state === undefined) return;
      if (outcome === 'success') state.successes += 1;
      else if (outcome === 'failure') state.failures += 1;
      else state.blocked += 1;
      for (const listener of listeners) listener(state.entry, outcome);
    },

    onOutcome(listener) {
      listeners.push(listener);
    },

    stats: () =>
      [...states.values()].map((state) => ({
        id: state.entry.id,
        protocol: state.entry.protocol,
        country: state.entry.country ?? null,
        healthy: state.healthy,
        successes: state.successes,
        failures: state.failures,
        blocked: state.blocked,
        lastError: state.lastError,
      })),

    checkNow: async () => {
      await Promise.all([...states.values()].map(check));
    },

    start() {
      if (timer !== undefined) return;
      void pool.checkNow();
      timer = setInterval(() => void pool.checkNow(), checkIntervalMs);
      timer.unref();
    },

    close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
  return pool;
}
