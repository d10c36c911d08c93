import ipaddr from 'ipaddr.js';

/** IPv6 transition mechanisms whose addresses carry an IPv4 address we classify instead. */
export type Tunnel = 'nat64' | '6to4' | 'teredo';

/**
 * What an IP address is, for deciding whether a scrape may reach it.
 *
 * - `public`: globally routable unicast.
 * - `private`: everything else that is not metadata: loopback, RFC 1918, link-local, CGNAT, ULA,
 *   multicast, reserved, unspecified... `range` is ipaddr.js's range name (`loopback`, `private`,
 *   `uniqueLocal`, ...) or `reserved` for IPv6 outside 2000::/3; `via` is set when the range is
 *   that of an IPv4 address embedded in an IPv6 transition address.
 * - `metadata`: a cloud instance-metadata or credentials endpoint. Kept apart from `private`
 *   because allowing private networks must not allow these.
 * - `invalid`: not a canonical IP string. Callers must refuse it.
 */
export type AddressClass =
  | { readonly kind: 'public' }
  | { readonly kind: 'private'; readonly range: string; readonly via?: Tunnel }
  | { readonly kind: 'metadata'; readonly via?: Tunnel }
  | { readonly kind: 'invalid' };

/**
 * Cloud metadata and credential endpoints. All but one sit in ranges that are blocked anyway;
 * listing them keeps them blocked when private networks are allowed.
 */
export const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack instance metadata
  '169.254.170.2', // AWS ECS task metadata and container credentials
  '169.254.170.23', // AWS EKS Pod Identity agent (credentials)
  '100.100.100.200', // Alibaba Cloud
  '168.63.129.16', // Azure WireServer: a public address, reachable only from inside Azure
  'fd00:ec2::254', // AWS IMDS over IPv6
  'fd00:ec2::23', // AWS EKS Pod Identity agent over IPv6
  'fd20:ce::254', // GCP metadata server for IPv6-only VMs
  'fe80::a9fe:a9fe', // OpenStack metadata over IPv6
];

const PUBLIC: AddressClass = { kind: 'public' };
const INVALID: AddressClass = { kind: 'invalid' };

/** Only 2000::/3 is allocated as global unicast (IANA IPv6 address space registry). */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 6052 well-known NAT64 prefix: the IPv4 address is always the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** RFC 3056 6to4: 2002:AABB:CCDD::/48 routes to the 6to4 router at IPv4 AA.BB.CC.DD. */
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
/** RFC 4380 Teredo. */
const TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');

const metadataKeys = new Set(METADATA_ADDRESSES.map((ip) => keyOf(ipaddr.parse(ip))));

/**
 * Classifies one IP address: an IPv4 dotted quad or an IPv6 address without brackets, as the
 * WHATWG URL parser or DNS produce them. Other spellings (`0x7f.1`, `127.000.0.1`) are `invalid`
 * on purpose: parse caller input with `new URL()` first, never classify it raw.
 */
export function classifyAddress(ip: string): AddressClass {
  if (!isCanonicalIp(ip)) return INVALID;
  // process() turns IPv4-mapped ::ffff:a.b.c.d into the IPv4 address it stands for.
  const address = ipaddr.process(ip);
  return address instanceof ipaddr.IPv4 ? classifyIPv4(address) : classifyIPv6(address);
}

function classifyIPv4(address: ipaddr.IPv4): AddressClass {
  if (metadataKeys.has(keyOf(address))) return { kind: 'metadata' };
  const range: string = address.range();
  return range === 'unicast' ? PUBLIC : { kind: 'private', range };
}

function classifyIPv6(address: ipaddr.IPv6): AddressClass {
  if (metadataKeys.has(keyOf(address))) return { kind: 'metadata' };
  const [, p1 = 0, p2 = 0, p3 = 0, , , p6 = 0, p7 = 0] = address.parts;

  // A NAT64 gateway forwards to the embedded IPv4 address, and DNS64 hands out such addresses
  // for ordinary public sites on IPv6-only hosts, so judge by the embedded address.
  if (address.match(NAT64_WELL_KNOWN)) return viaTunnel(ipv4From(p6, p7), 'nat64');

  // 6to4 packets are encapsulated to the embedded IPv4 router; a private one would put them on
  // our own network. A public one is ordinary (if deprecated, RFC 7526) internet routing.
  if (address.match(SIX_TO_FOUR)) return viaTunnel(ipv4From(p1, p2), '6to4');

  // Teredo embeds the Teredo server (bits 32-63) and the client's NAT-mapped address, inverted
  // (bits 96-127). A Teredo-capable host talks to both over UDP, so both must be public.
  if (address.match(TEREDO)) {
    const client = viaTunnel(ipv4From(~p6 & 0xffff, ~p7 & 0xffff), 'teredo');
    return client.kind === 'public' ? viaTunnel(ipv4From(p2, p3), 'teredo') : client;
  }

  // The d.ts lists fewer names than ipaddr.js returns (deprecatedSiteLocal, discard, ...).
  const range: string = address.range();
  // Everything else with a name is special-purpose, including the local-use NAT64 prefix
  // 64:ff9b:1::/48 (RFC 8215): its operator picks where inside it the IPv4 address sits, so the
  // embedded address cannot be read back reliably.
  if (range !== 'unicast') return { kind: 'private', range };
  // ipaddr.js calls anything unnamed "unicast", such as the deprecated IPv4-compatible ::a.b.c.d.
  if (!address.match(GLOBAL_UNICAST)) return { kind: 'private', range: 'reserved' };
  return PUBLIC;
}

function viaTunnel(embedded: ipaddr.IPv4, via: Tunnel): AddressClass {
  const inner = classifyIPv4(embedded);
  switch (inner.kind) {
    case 'private':
      return { kind: 'private', range: inner.range, via };
    case 'metadata':
      return { kind: 'metadata', via };
    default:
      return inner;
  }
}

function ipv4From(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** Bytes, so that zone ids and spelling do not matter and IPv4 and IPv6 never collide. */
function keyOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.toByteArray().join('.');
}

function isCanonicalIp(ip: string): boolean {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return true;
  if (!ipaddr.IPv6.isValid(ip)) return false;
  // ipaddr.js reads a dotted tail inside IPv6 by its own rules ('::ffff:0177.0.0.1' becomes
  // 177.0.0.1), so only plain dotted decimal is accepted there.
  const tail = ip.split('%', 1)[0]?.split(':').at(-1) ?? '';
  return !tail.includes('.') || ipaddr.IPv4.isValidFourPartDecimal(tail);
}
