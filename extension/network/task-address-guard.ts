import {
  refuseAddress,
  refuseHost,
  STRICT_NETWORK_POLICY,
  type NetworkPolicy,
} from '../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../shared/url/private-allow-list';
import type { CdpSession } from '../debugger/cdp-session';
import { cachedHubSettings } from '../hub/hub-settings';
import { PageTaskError } from '../tasks/page-task-error';

interface PeerResponse {
  url?: string;
  remoteIPAddress?: string;
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
}

/**
 * The browser half of the URL policy, for one task's tab. DNR rules (task-address-rules.ts) stop
 * IP literals and local names before a request is sent; this sees what they cannot: a public-looking
 * name that resolved to a private address (DNS rebinding, wildcard DNS). Every response and redirect
 * hop carries the address Chromium connected to (`remoteIPAddress`); one the policy refuses makes
 * the whole task fail with URL_BLOCKED, so nothing the tab captured is returned. This is detective:
 * the request was sent. It is skipped where the peer is a proxy (`peersAreProxies`, stealth
 * browsers), since `remoteIPAddress` is then the proxy's.
 */
export async function createAddressGuard(
  cdp: CdpSession,
  {
    mainFrameId,
    policy = STRICT_NETWORK_POLICY,
  }: { mainFrameId: string; policy?: NetworkPolicy | undefined },
): Promise<AddressGuard> {
  const peersAreProxies = (await cachedHubSettings())?.browserClass === 'stealth';
  const allowList = parsePrivateAllowList(policy.allowedPrivateHosts);
  const controller = new AbortController();
  let found: PageTaskError | undefined;
  /** Requests for the main frame's documents, to tell our blocks from ad blocking. */
  const documentRequests = new Set<string>();

  const fail = (message: string) => {
    if (found !== undefined) return;
    found = new PageTaskError('URL_BLOCKED', message);
    controller.abort(found);
  };

  const checkPeer = (response: PeerResponse | undefined) => {
    const ip = response?.remoteIPAddress?.replace(/^\[|\]$/g, '');
    if (peersAreProxies || ip === undefined || ip === '' || response?.url === undefined) return;
    let hostname: string;
    try {
      hostname = new URL(response.url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return;
    }
    const refusal = refuseAddress(policy, allowList, ip, hostname);
    if (refusal !== undefined) {
      fail(`${hostname} connected to ${ip}, which the URL policy refuses (${refusal})`);
    }
  };

  cdp.onEvent((method, params) => {
    if (method === 'Network.requestWillBeSent') {
      checkPeer(params.redirectResponse as PeerResponse | undefined);
      if (params.type === 'Document' && params.frameId === mainFrameId) {
        documentRequests.add(String(params.requestId));
      }
    } else if (method === 'Network.responseReceived') {
      checkPeer(params.response as PeerResponse);
    } else if (
      method === 'Network.loadingFailed' &&
      documentRequests.has(String(params.requestId)) &&
      String(params.errorText).includes('ERR_BLOCKED_BY_CLIENT')
    ) {
      // Ad blocking never touches the main frame (third-party subresources only): this was ours.
      fail('the page navigated to an address the URL policy refuses');
    }
  });

  return {
    assertClean() {
      if (found !== undefined) throw found;
    },
    violation: () => found,
    signal: controller.signal,
  };
}
