import { describe, expect, it } from 'vitest';
import { compareValues } from '../../../server/platform/store/embedded/compare-values';

/** MongoDB's string order is UTF-8 byte order; the embedded store must sort exactly as it does. */
const byteOrder = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

describe('compareValues on strings', () => {
  const samples = [
    '',
    'a',
    'ab',
    'b',
    'B',
    'é',
    'z\u00ff',
    '\u4e2d',
    '\ue000',
    '\uffff',
    '\u{1F600}',
    '\u{1F601}',
    'a\u{1F600}',
    'a\uffff',
    'a\u{10000}',
    '\u{10FFFF}',
  ];

  it('agrees with UTF-8 byte order on every pair, astral characters against U+E000–U+FFFF included', () => {
    for (const a of samples) {
      for (const b of samples) expect([a, b, compareValues(a, b)]).toEqual([a, b, byteOrder(a, b)]);
    }
  });
});
