import { createHash } from 'node:crypto';

export type Half = 'tuning' | 'held-out';

/**
 * Which half of a benchmark a page belongs to, from a hash of its file name: the same on every run
 * and machine, and unrelated to page type, site or order. Rules are tuned on the tuning half only;
 * the held-out half says whether they carry over to pages they were not tuned on.
 */
export function splitHalf(fileName: string): Half {
  const firstByte = createHash('sha256').update(fileName).digest()[0] ?? 0;
  return firstByte % 2 === 0 ? 'tuning' : 'held-out';
}
