import ipaddr from 'ipaddr.js';

/**
 * Regular expressions (RE2 syntax, as declarativeNetRequest's regexFilter takes them) for URLs
 * whose host is an IPv4 address in a CIDR range. Chromium hands DNR canonical URLs, so the host is
 * always a dotted quad of plain decimal numbers: `0x7f.1` has become `127.0.0.1` by then.
 */

/** Scheme, `//`, and any userinfo (canonical userinfo holds no `/` or unescaped `@`). */
export const URL_HOST_START = '^[a-z][a-z0-9+.-]*://(?:[^/@]*@)?';
/** An optional port, then the end of the authority. */
export const URL_HOST_END = '(?::[0-9]+)?(?:[/?#]|$)';

/** `lo`..`hi` (0–255) as decimal numbers without leading zeros, grouped by decade. */
export function numberRangeRegex(lo: number, hi: number): string {
  if (lo === 0 && hi === 255) return '[0-9]{1,3}';
  const parts: string[] = [];
  for (let decade = Math.floor(lo / 10); decade <= Math.floor(hi / 10); decade += 1) {
    const first = Math.max(lo, decade * 10) % 10;
    const last = Math.min(hi, decade * 10 + 9) % 10;
    const digits = first === last ? String(first) : `[${first}-${last}]`;
    parts.push(decade === 0 ? digits : `${decade}${digits}`);
  }
  return parts.length === 1 ? parts[0]! : `(?:${parts.join('|')})`;
}

/** The host part for one IPv4 CIDR range, e.g. `172\.(?:1[6-9]|2[0-9]|3[0-1])\.[0-9]{1,3}\.[0-9]{1,3}`. */
export function ipv4CidrRegex(cidr: string): string {
  const [network, bits] = ipaddr.IPv4.parseCIDR(cidr);
  const octets = network.octets;
  const parts: string[] = [];
  for (let index = 0; index < 4; index += 1) {
    const fixedBits = Math.min(8, Math.max(0, bits - index * 8));
    const mask = (0xff << (8 - fixedBits)) & 0xff;
    const lo = octets[index]! & mask;
    const hi = lo | (~mask & 0xff);
    parts.push(lo === hi ? String(lo) : numberRangeRegex(lo, hi));
  }
  return parts.join('\\.');
}

/** A whole-URL regex for any of the hosts given as regex parts. */
export function urlHostRegex(hostParts: readonly string[]): string {
  return `${URL_HOST_START}(?:${hostParts.join('|')})${URL_HOST_END}`;
}
