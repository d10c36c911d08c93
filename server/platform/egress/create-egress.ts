import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, type Dispatcher, buildConnector, errors as undiciErrors, request } from 'undici';
import { refuseAddress } from '../../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../../shared/url/private-allow-list';
import type { ProxyPool } from '../proxy-pool';
import { clampTimerMs } from '../time';
import type { LookupFn } from '../url-policy';
import { resolveHost, systemLookup } from '../url-policy';
import { createPoolDispatchers } from './pool-dispatchers';

/** Redirect hops followed for GETs; webhooks follow none (a 3xx is a failed delivery). */
const MAX_REDIRECTS = 5;
const CONNECT_TIMEOUT_MS = 10_000;

export class EgressBlockedError extends Error {
  readonly code = 'SSRF_BLOCKED';
  constructor(message: string) {
    super(message);
    this.name = 'EgressBlockedError';
  }
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as received, for binary answers such as gzipped sitemaps. */
  bytes: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface Egress {
  /** GET with redirects (each hop checked); the body is cut at `maxBytes`. */
  get(url: string, options: { timeoutMs: number; maxBytes: number }): Promise<EgressResponse>;
  /** POST without following redirects. */
  post(
    url: string,
    options: { body: string; headers: Record<string, string>; timeoutMs: number },
  ): Promise<EgressResponse>;
  close(): Promise<void>;
}

/**
 * The one way the server itself opens HTTP connections (robots.txt, sitemaps, webhooks). Every
 * connection is checked where it is made, so redirects and literal addresses cannot slip past
 * (docs/security.md#one-egress): names are resolved by our lookup, every answer is classified and
 * only checked addresses are used (pinned); literal hosts and the socket's peer are checked too.
 * Loopback and private ranges pass only with `allowPrivateNetworks`; metadata endpoints never.
 * `*.localhost` resolves to loopback (RFC 6761), as it does in Chromium.
 *
 * With `proxyPool` (PROXY_POOL), GETs go through the pool's proxy for their host instead
 * (docs/browser-control.md#proxy-pool): the name is resolved and checked here as above, but the
 * proxy resolves it again and connects where its answer points (no pinning through a proxy). A
 * GET whose proxy fails to connect or tunnel goes on through the host's next proxy while its time
 * lasts. POSTs (webhooks) never go through the pool.
 */
export function createEgress({
  allowPrivateNetworks,
  allowedPrivateHosts = [],
  lookup: resolve = systemLookup,
  proxyPool,
}: {
  allowPrivateNetworks: boolean;
  /** ALLOWED_PRIVATE_HOSTS: private names and ranges reachable without ALLOW_PRIVATE_NETWORKS. */
  allowedPrivateHosts?: readonly string[];
  /** Tests only: a resolver that answers from a table, so that no test needs real DNS. */
  lookup?: LookupFn;
  proxyPool?: ProxyPool | undefined;
}): Egress {
  const allowList = parsePrivateAllowList(allowedPrivateHosts);
  /** `hostname` is the name the URL gave, which the allow list may name. */
  const refusal = (address: string, hostname: string): string | undefined => {
    const reason = refuseAddress({ allowPrivateNetworks }, allowList, address, hostname);
    return reason === undefined ? undefined : `connections to ${address} are not allowed (${reason})`;
  };

  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const name = hostname.toLowerCase().replace(/\.+$/, '');
    resolveHost(name, resolve).then(
      (addresses) => {
        const blocked = addresses.map((a) => refusal(a.address, name)).find((reason) => reason !== undefined);
        if (blocked !== undefined || addresses.length === 0) {
          callback(new EgressBlockedError(`${hostname}: ${blocked ?? 'no address'}`), []);
        } else if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(err, []),
    );
  };

  const connect = buildConnector({ timeout: CONNECT_TIMEOUT_MS, lookup } as buildConnector.BuildOptions);
  const agent = new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[|\]$/g, '');
      const literal = isIP(host) !== 0 ? refusal(host, host) : undefined;
      if (literal !== undefined) {
        callback(new EgressBlockedError(literal), null);
        return;
      }
      connect(options, (err, socket) => {
        const peer = socket?.remoteAddress;
        const late = err === null && peer !== undefined ? refusal(peer, host) : undefined;
        if (late !== undefined) {
          socket?.destroy();
          callback(new EgressBlockedError(late), null);
        } else if (err !== null) callback(err, null);
        else callback(null, socket!);
      });
    },
  });

  const checkScheme = (url: URL) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new EgressBlockedError(`only http and https are fetched, not ${url.protocol}`);
    }
    if (url.username !== '' || url.password !== '') throw new EgressBlockedError('URLs with credentials');
  };

  const poolDispatchers = createPoolDispatchers();

  /** A URL the pool's proxy will fetch, checked here as the agent checks its connections. */
  const checkThroughProxy = async (url: URL) => {
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const addresses =
      isIP(host) !== 0 ? [{ address: host }] : await resolveHost(host.replace(/\.+$/, ''), resolve);
    if (addresses.length === 0) throw new EgressBlockedError(`${host}: no address`);
    for (const { address } of addresses) {
      const reason = refusal(address, host);
      if (reason !== undefined) throw new EgressBlockedError(reason);
    }
  };

  /**
   * Sends a GET through the pool: the host's proxy, then the next ones for as long as connecting
   * or tunnelling fails and time is left. Each attempt is counted on its proxy.
   */
  const requestThroughPool = async (
    pool: ProxyPool,
    url: URL,
    options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
    timeoutMs: number,
  ) => {
    await checkThroughProxy(url);
    const startedAt = Date.now();
    const tried = new Set<string>();
    let proxy = pool.proxyFor(url.hostname);
    for (;;) {
      tried.add(proxy.id);
      try {
        const response = await request(url, { ...options, dispatcher: poolDispatchers.of(proxy) });
        pool.record(proxy.id, 'success');
        return response;
      } catch (err) {
        // A page that takes its time is not the proxy's failure: the deadline is spent anyway.
        if (err instanceof undiciErrors.HeadersTimeoutError) throw err;
        pool.record(proxy.id, 'failure');
        const next = Date.now() - startedAt < timeoutMs ? pool.rotate(url.hostname, tried) : undefined;
        if (next === undefined) throw err;
        proxy = next;
      }
    }
  };

  async function readBody(body: AsyncIterable<Buffer> & { destroy(): void }, maxBytes: number) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) {
        body.destroy();
        break;
      }
    }
    return Buffer.concat(chunks).subarray(0, maxBytes);
  }

  return {
    async get(url, { timeoutMs, maxBytes }) {
      let current = new URL(url);
      for (let hop = 0; ; hop += 1) {
        checkScheme(current);
        const options = {
          method: 'GET' as const,
          headers: { 'user-agent': 'TabhiveBot/0.1 (FirecrawlAgent compatible)' },
          headersTimeout: clampTimerMs(timeoutMs),
          bodyTimeout: clampTimerMs(timeoutMs),
        };
        const response =
          proxyPool === undefined
            ? await request(current, { ...options, dispatcher: agent })
            : await requestThroughPool(proxyPool, current, options, timeoutMs);
        const location = response.headers.location;
        if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
          await response.body.dump();
          if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
          current = new URL(location, current);
          continue;
        }
        const bytes = await readBody(response.body, maxBytes);
        return {
          status: response.statusCode,
          headers: response.headers,
          body: bytes.toString('utf8'),
          bytes,
          url: current.href,
        };
      }
    },

    async post(url, { body, headers, timeoutMs }) {
      const target = new URL(url);
      checkScheme(target);
      const response = await request(target, {
        dispatcher: agent,
        method: 'POST',
        headers,
        body,
        headersTimeout: clampTimerMs(timeoutMs),
        bodyTimeout: clampTimerMs(timeoutMs),
      });
      const bytes = await readBody(response.body, 64 * 1024);
      return {
        status: response.statusCode,
        headers: response.headers,
        body: bytes.toString('utf8'),
        bytes,
        url: target.href,
      };
    },

    close: async () => {
      await Promise.all([agent.close(), poolDispatchers.close()]);
    },
  };
}
