import {
  refuseAddress,
  refuseHost,
  STRICT_NETWORK_POLICY,
  type NetworkPolicy,
} from '../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../shared/url/private-allow-list';
import type { CdpSession } from '../debugger/cdp-session';
import { cachedHubSettings } from '../hub/hub-settings';
import { readLaunchConfig } from '../hub/launch-config';
import { egressRefusalOf, type ResponseHeaders } from './egress-refusal-of';
import { PageTaskError } from '../task-kit/page-task-error';

interface PeerResponse {
  url?: string;
  remoteIPAddress?: string;
  headers?: ResponseHeaders;
}

/** Throws URL_BLOCKED for a URL the policy refuses by its host alone (before any DNS). */
export function checkTaskUrl(url: string, policy: NetworkPolicy = STRICT_NETWORK_POLICY): void {
  const refusal = refuseHost(policy, parsePrivateAllowList(policy.allowedPrivateHosts), new URL(url));
  if (refusal !== undefined && refusal !== 'needs-dns') {
    throw new PageTaskError('URL_BLOCKED', `${url} is refused by the URL policy (${refusal})`);
  }
}

export interface AddressGuard {
  /** Throws the violation, if there was one. */
  assertClean(): void;
  /** The first refused connection or blocked navigation the tab saw, if any. */
  violation(): PageTaskError | undefined;
  /** Aborted at the first violation, so that the task's waits end at once. */
  readonly signal: AbortSignal;
  /**
   * A response (or redirect hop) of `url` came from `ip` with `headers`: refused when the policy
   * says so, or when the browser's egress proxy answered it with its refusal.
   */
  checkPeer(url: string | undefined, ip: string | undefined, headers?: ResponseHeaders): void;
  /** The tab's main frame was stopped by a rule: one of ours, since ad blocking spares documents. */
  blockedNavigation(): void;
}

/**
 * The browser half of the URL policy, for one task's tab. In a launched browser whose traffic goes
 * through the server's egress proxy (server/platform/browser-egress/start-browser-egress-proxy.ts), the proxy
 * refuses before anything is sent, and its 403 (EGRESS_REFUSAL_HEADER) on any of the tab's
 * responses fails the task with URL_BLOCKED. Elsewhere (a donated browser, or a launched one with
 * private networks allowed) DNR rules (task-address-rules.ts) stop
 * IP literals and local names before a request is sent; this sees what they cannot: a public-looking
 * name that resolved to a private address (DNS rebinding, wildcard DNS). Every response and redirect
 * hop carries the address Chromium connected to (CDP's `remoteIPAddress`, webRequest's `ip`); one
 * the policy refuses makes the whole task fail with URL_BLOCKED, so nothing the tab captured is
 * returned. This is detective: the request was sent. It is skipped where the peer is a proxy
 * (`peersAreProxies`, stealth browsers), since the address is then the proxy's. What feeds it is
 * the task's business: tab-traffic.ts for tasks without the debugger, watchPeersOverCdp otherwise.
 */
export async function createAddressGuard(
  policy: NetworkPolicy = STRICT_NETWORK_POLICY,
): Promise<AddressGuard> {
  const behindEgressProxy = (await readLaunchConfig())?.egressProxy === true;
  const peersAreProxies = behindEgressProxy || (await cachedHubSettings())?.browserClass === 'stealth';
  const allowList = parsePrivateAllowList(policy.allowedPrivateHosts);
  const controller = new AbortController();
  let found: PageTaskError | undefined;

  const fail = (message: string) => {
    if (found !== undefined) return;
    found = new PageTaskError('URL_BLOCKED', message);
    controller.abort(found);
  };

  return {
    assertClean() {
      if (found !== undefined) throw found;
    },
    violation: () => found,
    signal: controller.signal,
    checkPeer(url, rawIp, headers) {
      const refusedByProxy = behindEgressProxy ? egressRefusalOf(headers) : undefined;
      if (refusedByProxy !== undefined) {
        fail(`the browser's egress proxy refused ${url ?? 'a request'} (${refusedByProxy})`);
        return;
      }
      const ip = rawIp?.replace(/^\[|\]$/g, '');
      if (peersAreProxies || ip === undefined || ip === '' || url === undefined) return;
      let hostname: string;
      try {
        hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
      } catch {
        return;
      }
      const refusal = refuseAddress(policy, allowList, ip, hostname);
      if (refusal !== undefined) {
        fail(`${hostname} connected to ${ip}, which the URL policy refuses (${refusal})`);
      }
    },
    blockedNavigation() {
      fail('the page navigated to an address the URL policy refuses');
    },
  };
}

/** Feeds the guard from a debugger session's Network events (tasks that run with the debugger). */
export function watchPeersOverCdp(guard: AddressGuard, cdp: CdpSession, mainFrameId: string): void {
  /** Requests for the main frame's documents, to tell our blocks from ad blocking. */
  const documentRequests = new Set<string>();
  cdp.onEvent((method, params) => {
    if (method === 'Network.requestWillBeSent') {
      const hop = params.redirectResponse as PeerResponse | undefined;
      if (hop !== undefined) guard.checkPeer(hop.url, hop.remoteIPAddress, hop.headers);
      if (params.type === 'Document' && params.frameId === mainFrameId) {
        documentRequests.add(String(params.requestId));
      }
    } else if (method === 'Network.responseReceived') {
      const response = params.response as PeerResponse;
      guard.checkPeer(response.url, response.remoteIPAddress, response.headers);
    } else if (EXTENSION_NAVIGATION_EVENTS.has(method)) {
      // A page may open no extension page (launch.html, C1): Chromium refuses the navigation,
      // no Network event says so, and the debugger may not touch what the tab then shows. The
      // task ends with URL_BLOCKED at the request instead of failing to capture it.
      const frame = (params.frame ?? params) as { id?: string; frameId?: string; url?: string };
      if ((frame.id ?? frame.frameId) === mainFrameId && isExtensionUrl(frame.url)) {
        guard.blockedNavigation();
      }
    } else if (
      method === 'Network.loadingFailed' &&
      documentRequests.has(String(params.requestId)) &&
      String(params.errorText).includes('ERR_BLOCKED_BY_CLIENT')
    ) {
      guard.blockedNavigation();
    }
  });
}

/** The events that announce where a frame is going (the renderer's request, the browser's start) or went. */
const EXTENSION_NAVIGATION_EVENTS = new Set([
  'Page.frameRequestedNavigation',
  'Page.frameStartedNavigating',
  'Page.frameNavigated',
]);
const isExtensionUrl = (url: string | undefined) => url?.startsWith('chrome-extension:') === true;
