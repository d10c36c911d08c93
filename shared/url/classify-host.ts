import { classifyAddress, type AddressClass } from './classify-address';

/**
 * What a URL's host is. Names that are local by convention are `private` without asking DNS:
 * `range` is `localhost`, `singleLabel` or `localName`. Any other name is `needs-dns`: only its
 * resolved addresses can tell.
 */
export type HostClass = AddressClass | { readonly kind: 'needs-dns' };

/** GCP's metadata server; `metadata` is the short name its resolver also answers. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata']);

/**
 * Suffixes that never name a public site: mDNS (RFC 6762), ICANN's private-use `.internal`,
 * RFC 8375 home networks, and the customary `.lan` and `.localdomain` (which /etc/hosts often maps
 * to loopback, as in `localhost.localdomain`).
 */
const LOCAL_SUFFIXES = ['.local', '.internal', '.home.arpa', '.lan', '.localdomain'];

/**
 * Classifies the host of a URL parsed by the WHATWG parser, which has already turned every IPv4
 * spelling (`0x7f.1`, `2130706433`, `127。0。0。1`, ...) into a dotted quad, and IPv6 into its
 * short bracketed form.
 */
export function classifyHost(url: URL): HostClass {
  const host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) return classifyAddress(host.slice(1, -1));

  // DNS ignores a final dot, and so do resolvers for `localhost.`; drop them all to be safe.
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (name === '') return { kind: 'invalid' };

  // For http(s) the URL parser turns any host whose last label is a number into a dotted quad or
  // rejects it. Hosts of other schemes are kept verbatim (`gopher://0x7f.1`), and a resolver would
  // read those as IPv4 too, so anything that ends in a number must be a canonical address.
  const lastLabel = name.slice(name.lastIndexOf('.') + 1);
  if (/^(\d+|0x[\da-f]*)$/.test(lastLabel)) return classifyAddress(name);

  if (METADATA_NAMES.has(name)) return { kind: 'metadata' };
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return { kind: 'private', range: 'localhost' };
  }
  // Resolvers complete single labels with the search domains of the network they sit on.
  if (!name.includes('.')) return { kind: 'private', range: 'singleLabel' };
  if (LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return { kind: 'private', range: 'localName' };
  }
  return { kind: 'needs-dns' };
}
