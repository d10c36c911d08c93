import ipaddr from 'ipaddr.js';
import { classifyAddress } from './classify-address';

/**
 * The operator's narrow exception to the private-network block (ALLOWED_PRIVATE_HOSTS): host names
 * (each also covers its subdomains) and IP addresses or CIDR ranges. It never covers a cloud
 * metadata endpoint: a metadata address stays blocked even inside an allowed range.
 */
export interface PrivateAllowList {
  /** Lowercase names without a trailing dot. */
  readonly names: readonly string[];
  /** Parsed ranges; an address is a range of one (/32 or /128). */
  readonly ranges: readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];
}

export const EMPTY_ALLOW_LIST: PrivateAllowList = { names: [], ranges: [] };

const NAME = /^(?=.{1,253}$)([a-z\d_]([a-z\d_-]{0,61}[a-z\d])?)(\.[a-z\d_]([a-z\d_-]{0,61}[a-z\d])?)*$/;

/**
 * Reads entries such as `intranet.example.com`, `10.1.2.3`, `192.168.0.0/16`, `fd12::/64`.
 * Throws on anything else, naming the entry, so that a typo is a configuration error rather than
 * a silently wider or narrower exception.
 */
export function parsePrivateAllowList(entries: readonly string[]): PrivateAllowList {
  const names: string[] = [];
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase().replace(/\.+$/, '');
    if (entry === '') continue;
    const range = parseRange(entry);
    if (range !== undefined) ranges.push(range);
    else if (NAME.test(entry) && !/^[\d.]+$/.test(entry)) names.push(entry);
    else throw new Error(`not a host name, IP address or CIDR range: ${raw}`);
  }
  return { names, ranges };
}

function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  const unbracketed = entry.replace(/^\[(.*)\]$/, '$1');
  if (unbracketed.includes('/')) {
    try {
      const [address, bits] = ipaddr.parseCIDR(unbracketed);
      return [address.kind() === 'ipv6' ? unmap(address) : address, bits];
    } catch {
      return undefined;
    }
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(unbracketed) && !ipaddr.IPv6.isValid(unbracketed)) return undefined;
  const address = ipaddr.process(unbracketed);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** `::ffff:10.0.0.0/104` means 10.0.0.0/8: addresses are unmapped before they are compared. */
function unmap(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** Whether `hostname` (no brackets, any case, trailing dots ignored) is an allowed name or under one. */
export function allowsName(list: PrivateAllowList, hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return list.names.some((allowed) => name === allowed || name.endsWith(`.${allowed}`));
}

/** Whether a canonical IP address lies in an allowed range. Metadata endpoints never do. */
export function allowsAddress(list: PrivateAllowList, ip: string): boolean {
  if (list.ranges.length === 0 || classifyAddress(ip).kind === 'metadata') return false;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip);
  } catch {
    return false;
  }
  return list.ranges.some(([network, bits]) =>
    address instanceof ipaddr.IPv4
      ? network instanceof ipaddr.IPv4 && address.match(network, bits)
      : network instanceof ipaddr.IPv6 && address.match(network, bits),
  );
}
