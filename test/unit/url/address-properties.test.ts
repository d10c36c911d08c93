import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';

/**
 * Random addresses drawn from ranges written out here, independently of ipaddr.js's own table, so
 * that a library upgrade which reclassifies a range fails this file. Every address goes through
 * `new URL()` and the whole policy, as a scrape target would.
 */
const SAMPLES_PER_RANGE = 2_000;

/** IANA IPv4 special-purpose registry, less nothing: none of it is a scrape target. */
const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '192.175.48.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

const BLOCKED_V6 = [
  '::/128',
  '::1/128',
  '::/96', // IPv4-compatible, deprecated
  '::ffff:0:0:0/96', // RFC 6145 IPv4-translated
  // IPv4-mapped, NAT64 and 6to4 only when the IPv4 inside is private.
  '::ffff:7f00:0/104',
  '::ffff:a00:0/104',
  '::ffff:ac10:0/108',
  '::ffff:c0a8:0/112',
  '::ffff:6440:0/106',
  '64:ff9b::7f00:0/104',
  '64:ff9b::a00:0/104',
  '64:ff9b::ac10:0/108',
  '64:ff9b::c0a8:0/112',
  '64:ff9b::a9fe:0/112',
  '64:ff9b::e000:0/99',
  '64:ff9b:1::/48',
  '2002:7f00::/24',
  '2002:a00::/24',
  '2002:ac10::/28',
  '2002:c0a8::/32',
  '2002::/24',
  '2002:e000::/19',
  '100::/8', // includes the RFC 6666 discard prefix 100::/64
  '2001:100::/24', // the rest of 2001::/23 beside Teredo's 2001::/32
  '2001:2::/48',
  '2001:3::/32',
  '2001:4:112::/48',
  '2001:10::/28',
  '2001:20::/28',
  '2001:30::/28',
  '2001:db8::/32',
  '2620:4f:8000::/48',
  '3fff::/20',
  '5f00::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
  // Not allocated for global unicast.
  '200::/7',
  '400::/6',
  '800::/5',
  '1000::/4',
  '4000::/2',
  '8000::/1',
];

/** Special ranges inside 2000::/3, which is otherwise global unicast. */
const SPECIAL_IN_GLOBAL_V6 = ['2001::/23', '2001:db8::/32', '2002::/16', '2620:4f:8000::/48', '3fff::/20'];

/** Public addresses that are nonetheless cloud endpoints. */
const METADATA_PUBLIC_V4 = ['168.63.129.16'];

/** xorshift32: small, seeded, and the same sequence on every run. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

/** A distinct, fixed seed per range, so each range gets its own sequence. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

function randomBytes(random: () => number, length: number): number[] {
  return Array.from({ length }, () => random() & 0xff);
}

/** A random address inside `cidr`: its prefix bits, then random bits. */
function sampleIn(cidr: string, random: () => number): number[] {
  const [network, prefixLength] = ipaddr.parseCIDR(cidr);
  const prefix = network.toByteArray();
  const bytes = randomBytes(random, prefix.length);
  return bytes.map((byte, i) => {
    const bitsFromPrefix = Math.min(8, Math.max(0, prefixLength - i * 8));
    const mask = (0xff00 >> bitsFromPrefix) & 0xff;
    return ((prefix[i] ?? 0) & mask) | (byte & ~mask & 0xff);
  });
}

/** URL spellings: dotted, decimal and hex IPv4; uncompressed bracketed IPv6. */
function toUrl(bytes: number[], random: () => number): string {
  if (bytes.length === 4) {
    const value = bytes.reduce((n, byte) => n * 256 + byte, 0);
    const spellings = [bytes.join('.'), String(value), `0x${value.toString(16)}`];
    return `http://${spellings[random() % spellings.length]}/`;
  }
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return `http://[${groups.join(':')}]/`;
}

function inAny(bytes: number[], cidrs: readonly string[]): boolean {
  const address = ipaddr.fromByteArray(bytes);
  return cidrs.some((cidr) => {
    const range = ipaddr.parseCIDR(cidr);
    return address.kind() === range[0].kind() && address.match(range);
  });
}

const policy = createUrlPolicy({
  allowPrivateNetworks: false,
  lookup: () => Promise.reject(new Error('IP literals must not be resolved')),
});

async function verdictsFor(urls: readonly string[]): Promise<Map<string, string>> {
  const refusedOrAllowed = new Map<string, string>();
  for (const url of urls) {
    const verdict = await policy.check(new URL(url));
    refusedOrAllowed.set(url, verdict.allowed ? 'allowed' : verdict.reason);
  }
  return refusedOrAllowed;
}

describe('address properties', () => {
  it.each([...BLOCKED_V4, ...BLOCKED_V6])(
    `refuses ${SAMPLES_PER_RANGE} random addresses in %s`,
    async (cidr) => {
      const random = createRandom(seedOf(cidr));
      const urls = Array.from({ length: SAMPLES_PER_RANGE }, () => toUrl(sampleIn(cidr, random), random));
      const allowed = [...(await verdictsFor(urls))].filter(([, verdict]) => verdict === 'allowed');
      expect(allowed).toEqual([]);
    },
  );

  it(`refuses ${SAMPLES_PER_RANGE} Teredo addresses whose client is private`, async () => {
    const random = createRandom(0x7e4ed0);
    const urls = Array.from({ length: SAMPLES_PER_RANGE }, () => {
      const server = randomBytes(random, 4);
      const client = sampleIn(BLOCKED_V4[random() % BLOCKED_V4.length] ?? '10.0.0.0/8', random);
      const port = randomBytes(random, 2);
      const flags = [0x80, 0x00];
      const obfuscated = client.map((byte) => ~byte & 0xff);
      return toUrl([0x20, 0x01, 0x00, 0x00, ...server, ...flags, ...port, ...obfuscated], random);
    });
    const allowed = [...(await verdictsFor(urls))].filter(([, verdict]) => verdict === 'allowed');
    expect(allowed).toEqual([]);
  });

  it(`allows ${SAMPLES_PER_RANGE} random global unicast IPv4 addresses`, async () => {
    const random = createRandom(0x1e4);
    const urls: string[] = [];
    while (urls.length < SAMPLES_PER_RANGE) {
      const bytes = randomBytes(random, 4);
      if (inAny(bytes, BLOCKED_V4) || METADATA_PUBLIC_V4.includes(bytes.join('.'))) continue;
      urls.push(toUrl(bytes, random));
    }
    const refused = [...(await verdictsFor(urls))].filter(([, verdict]) => verdict !== 'allowed');
    expect(refused).toEqual([]);
  });

  it(`allows ${SAMPLES_PER_RANGE} random global unicast IPv6 addresses`, async () => {
    const random = createRandom(0x1e6);
    const urls: string[] = [];
    while (urls.length < SAMPLES_PER_RANGE) {
      const bytes = sampleIn('2000::/3', random);
      if (inAny(bytes, SPECIAL_IN_GLOBAL_V6)) continue;
      urls.push(toUrl(bytes, random));
    }
    const refused = [...(await verdictsFor(urls))].filter(([, verdict]) => verdict !== 'allowed');
    expect(refused).toEqual([]);
  });

  it(`allows ${SAMPLES_PER_RANGE} public IPv4 addresses reached through IPv4-mapped, NAT64 and 6to4`, async () => {
    const random = createRandom(0x64);
    const urls: string[] = [];
    while (urls.length < SAMPLES_PER_RANGE) {
      const v4 = randomBytes(random, 4);
      if (inAny(v4, BLOCKED_V4) || METADATA_PUBLIC_V4.includes(v4.join('.'))) continue;
      const forms = [
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4],
        [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, ...v4],
        [0x20, 0x02, ...v4, ...randomBytes(random, 10)],
      ];
      urls.push(toUrl(forms[random() % forms.length] ?? [], random));
    }
    const refused = [...(await verdictsFor(urls))].filter(([, verdict]) => verdict !== 'allowed');
    expect(refused).toEqual([]);
  });
});
