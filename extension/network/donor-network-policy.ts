import { normalizeDomainEntry } from '../../shared/donation/host-allowed';
import { STRICT_NETWORK_POLICY, type NetworkPolicy } from '../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../shared/url/private-allow-list';

/** An allowed domain as the URL policy's allow list takes it (ASCII, `xn--` for IDN); undefined if it cannot be one. */
function asAllowEntry(domain: string): string | undefined {
  const entry = normalizeDomainEntry(domain);
  if (entry === '') return undefined;
  try {
    const host = new URL(`http://${entry}/`).hostname.replace(/^\[(.*)\]$/, '$1');
    parsePrivateAllowList([host]);
    return host;
  } catch {
    return undefined;
  }
}

/**
 * The network policy a donated browser runs a team's task under: the server's, with its owner's
 * allowed domains among the private hosts the tab may reach. The owner chose those sites, and
 * some of them only the owner's network knows (an intranet name, a VPN-only host resolving to a
 * private address): the server routes such a site's pages to this browser alone and makes no
 * connection itself. Everything else keeps the server's rules, exactly as before: a private or
 * loopback address under any other name, a private IP literal, a local name outside the domains,
 * and cloud metadata endpoints always, for the page, its redirects and everything it loads; and
 * the domain fence (task-network-rules.ts) still keeps the tab's pages on the allowed domains.
 */
export function donorNetworkPolicy(
  policy: NetworkPolicy | undefined,
  allowedDomains: readonly string[],
): NetworkPolicy {
  const base = policy ?? STRICT_NETWORK_POLICY;
  if (base.allowPrivateNetworks) return base;
  const added = allowedDomains.flatMap((domain) => asAllowEntry(domain) ?? []);
  return { ...base, allowedPrivateHosts: [...new Set([...base.allowedPrivateHosts, ...added])] };
}
