import { z } from 'zod';
import { classifyAddress } from './classify-address';
import { classifyHost } from './classify-host';
import { allowsAddress, allowsName, type PrivateAllowList } from './private-allow-list';

/**
 * Where a page task may connect, as the server's configuration says (ALLOW_PRIVATE_NETWORKS,
 * ALLOWED_PRIVATE_HOSTS). The server sends it with every task, so the browser enforces the same
 * rules as the server's own fetching: a launched pool may run with private networks allowed while
 * a production server never does.
 */
export const NetworkPolicy = z.object({
  allowPrivateNetworks: z.boolean(),
  /** Host names, IP addresses and CIDR ranges allowed although private (never metadata). */
  allowedPrivateHosts: z.array(z.string().max(300)).max(256).default([]),
});
export type NetworkPolicy = z.infer<typeof NetworkPolicy>;

/** What a task gets without a policy from the server: the production default. */
export const STRICT_NETWORK_POLICY: NetworkPolicy = { allowPrivateNetworks: false, allowedPrivateHosts: [] };

/** Why a connection is refused; `invalid` is an address nobody should connect to (not canonical). */
export type AddressRefusal = 'private-network' | 'metadata' | 'invalid';

/**
 * The verdict on one address a name resolved to, or a socket ended up at. `hostname` is what the
 * URL named: a private answer for an allowed name passes, as does any address in an allowed range.
 */
export function refuseAddress(
  policy: Pick<NetworkPolicy, 'allowPrivateNetworks'>,
  allowList: PrivateAllowList,
  ip: string,
  hostname: string,
): AddressRefusal | undefined {
  const address = classifyAddress(ip);
  switch (address.kind) {
    case 'public':
      return undefined;
    case 'metadata':
      return 'metadata';
    case 'invalid':
      return 'invalid';
    case 'private':
      if (policy.allowPrivateNetworks) return undefined;
      return allowsAddress(allowList, ip) || allowsName(allowList, hostname) ? undefined : 'private-network';
  }
}

/**
 * The verdict on a URL's host before any DNS: IP literals and names that are local by convention
 * are judged now, other names need their resolved addresses (`needs-dns`). The scheme and userinfo
 * are the caller's to check.
 */
export function refuseHost(
  policy: Pick<NetworkPolicy, 'allowPrivateNetworks'>,
  allowList: PrivateAllowList,
  url: URL,
): AddressRefusal | 'needs-dns' | undefined {
  const host = classifyHost(url);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  switch (host.kind) {
    case 'needs-dns':
      return 'needs-dns';
    case 'public':
      return undefined;
    case 'metadata':
      return 'metadata';
    case 'invalid':
      return 'invalid';
    case 'private':
      // allowsAddress only matches literals; allowsName only names.
      return policy.allowPrivateNetworks ||
        allowsName(allowList, hostname) ||
        allowsAddress(allowList, hostname)
        ? undefined
        : 'private-network';
  }
}
