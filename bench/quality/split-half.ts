import { createHash } from 'node:crypto';

export type Half = 'tuning' | 'held-out';

/**
 * Which half of a benchmark a page belongs to, from a hash of its site (registered domain): the
 * same on every run and machine, unrelated to page type or order, and every page of one site on
 * the same side. A split by page put a site's other pages, and so its templates, on both sides,
 * and the held-out half then rewarded rules fitted to those templates (issue 35): rules are tuned
 * on the first half only, and the second says whether they carry over to sites they never saw.
 */
export function splitHalf(pageUrl: string): Half {
  const firstByte = createHash('sha256').update(registeredDomain(pageUrl)).digest()[0] ?? 0;
  return firstByte % 2 === 0 ? 'tuning' : 'held-out';
}

/**
 * Second-level labels under which country codes register names (`example.co.uk`, `example.com.au`):
 * enough of the public suffix list for the benchmarks' sites, which the split only has to keep
 * together, not name exactly.
 */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'go']);

/** `store.steampowered.com` → `steampowered.com`; `news.bbc.co.uk` → `bbc.co.uk`. */
export function registeredDomain(pageUrl: string): string {
  let host: string;
  try {
    host = new URL(pageUrl).hostname.toLowerCase();
  } catch {
    return pageUrl;
  }
  const labels = host.replace(/^www\d*\./, '').split('.');
  const last = labels.at(-1) ?? '';
  const second = labels.at(-2) ?? '';
  const keep = last.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}
