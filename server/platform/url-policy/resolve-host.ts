import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFn } from './create-url-policy';

/** The operating system's resolver, every answer in its own order. */
export const systemLookup: LookupFn = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, order: 'verbatim' }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((answer) => answer.address)),
    ),
  );

/**
 * Every address `hostname` resolves to. `*.localhost` resolves to loopback (RFC 6761), as it does
 * in Chromium, whatever the resolver says; a final dot and case do not make another name.
 */
export async function resolveHost(hostname: string, lookup: LookupFn): Promise<LookupAddress[]> {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }];
  const found = await lookup(name);
  return found.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
}
