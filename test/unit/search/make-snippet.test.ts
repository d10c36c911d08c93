import { describe, expect, it } from 'vitest';
import { makeSnippet } from '../../../server/products/search/make-snippet';

const filler = (words: number) => Array.from({ length: words }, (_, i) => `filler${i}`).join(' ');

describe('makeSnippet', () => {
  it('centres on the first query word that starts a word, not on one inside another word', () => {
    const text = `${filler(40)} prehive ${filler(10)} hive keeping explained here ${filler(40)}`;
    const snippet = makeSnippet(text, ['hive']);
    expect(snippet).toContain('hive keeping explained');
    expect(snippet.startsWith('…')).toBe(true);
  });

  it('takes query text literally, hostile words included', () => {
    const text = `${filler(60)} (a+)+$ literally ${filler(60)}`;
    expect(makeSnippet(text, ['(a+)+$'])).toContain('(a+)+$ literally');
    // Words that would be catastrophic as patterns are plain text here.
    expect(makeSnippet(`${'a'.repeat(100_000)}!`, ['a'.repeat(50_000) + 'b', '(.*a){30}', ''])).toMatch(
      /^a{100,}/,
    );
  });

  it('starts at the beginning when no query word occurs', () => {
    const text = filler(100);
    expect(makeSnippet(text, ['absent']).startsWith('filler0 filler1')).toBe(true);
  });
});
