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
 * The verdict on a classified address or host: public passes, metadata and invalid never do,
 * and a private one passes when private networks are allowed or `allowListed()` says so.
 */
function verdictOn(
  kind: 'public' | 'private' | 'metadata' | 'invalid',
  policy: Pick<NetworkPolicy, 'allowPrivateNetworks'>,
  allowListed: () => boolean,
): AddressRefusal | undefined {
  switch (kind) {
    case 'public':
      return undefined;
    case 'metadata':
      return 'metadata';
    case 'invalid':
      return 'invalid';
    case 'private':
      return policy.allowPrivateNetworks || allowListed() ? undefined : 'private-network';
  }
}

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
  return verdictOn(
    classifyAddress(ip).kind,
    policy,
    () => allowsAddress(allowList, ip) || allowsName(allowList, hostname),
  );
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
  if (host.kind === 'needs-dns') return 'needs-dns';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  // allowsAddress only matches literals; allowsName only names.
  return verdictOn(
    host.kind,
    policy,
    () => allowsName(allowList, hostname) || allowsAddress(allowList, hostname),
  );
}
