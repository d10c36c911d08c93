import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { RequestError, Server, type PrepareRequestFunctionResult } from 'proxy-chain';
import { EGRESS_REFUSAL_HEADER } from '../../../shared/url/egress-refusal';
import { refuseAddress, refuseHost, type NetworkPolicy } from '../../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../../shared/url/private-allow-list';
import type { Log } from '../log';
import type { ProxyPool } from '../proxy-pool';
import type { LookupFn } from '../url-policy';
import { pinnedLookup } from './pinned-lookup';
import { resolveHost, systemLookup } from '../url-policy';

export interface BrowserEgressProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The one way out of a launched browser (docs/security.md): Chromium sends every request, tunnel
 * and WebSocket of every page, worker, popup and WebRTC TCP candidate here, and this proxy decides
 * where it connects with the same policy as the server's own fetching (create-egress.ts). It
 * resolves each name itself, refuses when any answer is an address the policy refuses, and then
 * connects to exactly the addresses it checked, so a name that answers differently a moment later
 * (DNS rebinding) changes nothing. A refusal is a 403 with EGRESS_REFUSAL_HEADER, which a task's
 * address guard turns into URL_BLOCKED. Listens on loopback only.
 *
 * With `upstreamProxyUrl` (stealth browsers), connections go on through the operator's upstream
 * proxy, which resolves names again from its own network: names are judged here by what they say
 * and what they resolve to here, but the upstream connects where its own answer points.
 *
 * With `proxyPool` (PROXY_POOL), each connection goes through the pool's proxy for its host
 * (docs/browser-control.md#proxy-pool), chosen when the browser asks for it; the pool counts each
 * connection, when it closes, a success when the upstream answered, a failure when it did not.
 */
export async function startBrowserEgressProxy({
  policy,
  lookup = systemLookup,
  upstreamProxyUrl: fixedUpstream,
  proxyPool,
  log,
}: {
  policy: NetworkPolicy;
  /** Tests only: a resolver that answers from a table. */
  lookup?: LookupFn | undefined;
  upstreamProxyUrl?: string | undefined;
  /** Overrides `upstreamProxyUrl`: every connection through the pool's proxy for its host. */
  proxyPool?: ProxyPool | undefined;
  log: Log;
}): Promise<BrowserEgressProxy> {
  /**
   * Connections that went through pool proxies: which ones (a kept-alive connection of plain-http
   * requests may carry several sites), and whether one already failed.
   */
  const pooled = new Map<number, { proxyIds: Set<string>; failed: boolean }>();
  const allowList = parsePrivateAllowList(policy.allowedPrivateHosts);
  const refused = (address: string, reason: string) =>
    new RequestError(`Tabhive refused a connection to ${address} (${reason})`, 403, {
      [EGRESS_REFUSAL_HEADER]: `${reason}; ${address}`,
    });

  const decide = async (
    rawHostname: string,
    port: number,
    connectionId: number,
  ): Promise<PrepareRequestFunctionResult> => {
    const hostname = rawHostname.replace(/^\[|\]$/g, '');
    const pick = proxyPool?.proxyFor(hostname);
    const upstreamProxyUrl = pick?.url ?? fixedUpstream;
    /** Connects through the upstream; a pool's connection is counted when it closes. */
    const viaUpstream = (url: string): PrepareRequestFunctionResult => {
      if (pick !== undefined) {
        const connection = pooled.get(connectionId) ?? { proxyIds: new Set<string>(), failed: false };
        connection.proxyIds.add(pick.id);
        pooled.set(connectionId, connection);
      }
      return { upstreamProxyUrl: url, customTag: pick?.id };
    };
    const urlHost = isIP(hostname) === 6 ? `[${hostname}]` : hostname;
    let url: URL;
    try {
      url = new URL(`http://${urlHost}:${port}/`);
    } catch {
      throw new RequestError(`${rawHostname} is not a host`, 400);
    }
    const byName = refuseHost(policy, allowList, url);
    if (byName !== undefined && byName !== 'needs-dns') throw refused(hostname, byName);
    // A literal is connected to as is.
    if (isIP(hostname) !== 0) return upstreamProxyUrl === undefined ? {} : viaUpstream(upstreamProxyUrl);
    let addresses: LookupAddress[] = [];
    try {
      addresses = await resolveHost(hostname, lookup);
    } catch {
      // An upstream proxy may know names this machine does not.
      if (upstreamProxyUrl === undefined) throw new RequestError(`${hostname} does not resolve`, 502);
    }
    if (addresses.length === 0 && upstreamProxyUrl === undefined) {
      throw new RequestError(`${hostname} does not resolve`, 502);
    }
    for (const { address } of addresses) {
      const reason = refuseAddress(policy, allowList, address, hostname);
      if (reason !== undefined) throw refused(address, reason);
    }
    // Behind an upstream proxy the name is resolved again, from the upstream's network: a name
    // private everywhere (wildcard DNS such as 127.0.0.1.nip.io) is refused above; one that changes
    // its answer in between goes where the upstream's answer points.
    if (upstreamProxyUrl !== undefined) return viaUpstream(upstreamProxyUrl);
    // proxy-chain types the option as dns.lookup itself; net.connect calls it as a LookupFunction.
    return { dnsLookup: pinnedLookup(addresses) as typeof dnsLookup };
  };

  const server = new Server({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ hostname, port, connectionId }) => decide(hostname, port, connectionId),
  });
  if (proxyPool !== undefined) {
    // The upstream answered CONNECT with an error (refused, authentication failed).
    server.on('tunnelConnectFailed', ({ proxyChainId }: { proxyChainId: number }) => {
      const connection = pooled.get(proxyChainId);
      if (connection !== undefined) connection.failed = true;
    });
    server.on(
      'connectionClosed',
      ({ connectionId, stats }: { connectionId: number; stats?: { trgRxBytes?: number | null } }) => {
        const connection = pooled.get(connectionId);
        if (connection === undefined) return;
        pooled.delete(connectionId);
        // Nothing ever came back from the upstream: it refused, reset or never answered.
        const answered = (stats?.trgRxBytes ?? 0) > 0;
        for (const proxyId of connection.proxyIds) {
          proxyPool.record(proxyId, answered && !connection.failed ? 'success' : 'failure');
        }
      },
    );
  }
  server.on('requestFailed', ({ error }: { error: Error }) =>
    // proxy-chain's messages may quote an upstream URL: credentials never reach the log.
    log.warn('browser egress proxy failed a request', {
      error: error.message.replace(/\/\/[^/@\s]*@/g, '//'),
    }),
  );
  await server.listen();
  return {
    url: `http://127.0.0.1:${server.port}`,
    close: () => server.close(true),
  };
}
