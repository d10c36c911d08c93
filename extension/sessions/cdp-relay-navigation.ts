import { donationRefusal } from '../../shared/donation/donation-refusal';
import type { DonationTerms } from '../../shared/protocol/messages';
import { refuseHost, STRICT_NETWORK_POLICY, type NetworkPolicy } from '../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../shared/url/private-allow-list';
import type { DirectCdp } from './cdp-direct';
import { isWebUrl } from './cdp-relay-params';

interface HistoryEntry {
  id: number;
  url: string;
}

/** Where a navigation command sends the tab; undefined for commands that do not navigate. */
async function destination(
  method: string,
  params: Record<string, unknown>,
  direct: DirectCdp,
): Promise<string | undefined> {
  if (method === 'Page.navigate') return String(params['url']);
  if (method !== 'Page.navigateToHistoryEntry' && method !== 'Page.reload') return undefined;
  const history = (await direct('Page.getNavigationHistory', {})) as {
    currentIndex?: number;
    entries?: HistoryEntry[];
  };
  const entries = history.entries ?? [];
  const entry =
    method === 'Page.reload'
      ? entries[history.currentIndex ?? -1]
      : entries.find((candidate) => candidate.id === params['entryId']);
  // An entry nobody can name goes nowhere; Chromium answers the client's error itself.
  return entry?.url ?? 'about:blank';
}

/**
 * Why a navigation the relay was asked for may not happen, checked before it is sent: the
 * address is a web address (history entries too, which may hold an error page or a refused
 * address), its host passes the network policy by itself (IP literals and local names; a public
 * name that resolves to a private address is the address guard's and the server's pre-check's),
 * and on a donated browser it stays within the owner's domains (TASK_REFUSED, as the owner's
 * other refusals). Undefined when it may go.
 */
export async function relayNavigationRefusal(
  method: string,
  params: Record<string, unknown>,
  {
    direct,
    networkPolicy,
    donorTerms,
  }: { direct: DirectCdp; networkPolicy: NetworkPolicy | undefined; donorTerms: DonationTerms | undefined },
): Promise<{ code: 'URL_BLOCKED' | 'TASK_REFUSED'; message: string } | undefined> {
  const url = await destination(method, params, direct);
  if (url === undefined) return undefined;
  if (!isWebUrl(url)) {
    return {
      code: 'URL_BLOCKED',
      message: `${method} through the cdpUrl relay goes to http(s) addresses and about:blank only`,
    };
  }
  if (url === 'about:blank') return undefined;
  // The host alone, as the task's own first navigation is checked (task-address-guard.ts).
  const policy = networkPolicy ?? STRICT_NETWORK_POLICY;
  const refused = refuseHost(policy, parsePrivateAllowList(policy.allowedPrivateHosts), new URL(url));
  if (refused !== undefined && refused !== 'needs-dns') {
    return { code: 'URL_BLOCKED', message: `${url} is refused by the URL policy (${refused})` };
  }
  const fenced = donorTerms === undefined ? undefined : donationRefusal(donorTerms, { url });
  return fenced === undefined ? undefined : { code: 'TASK_REFUSED', message: fenced };
}
