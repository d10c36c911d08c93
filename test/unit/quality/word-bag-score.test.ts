import { describe, expect, it } from 'vitest';
import { splitHalf } from '../../../bench/quality/split-half';
import { snippetShare, wordBagScore, wordLine, words } from '../../../bench/quality/word-bag-score';
import { withoutHeadlines } from '../../../bench/quality/score-methods';

describe('the WCXB metric', () => {
  it('lower-cases Unicode words', () => {
    expect(words('Café Crème, 2×!')).toEqual(['café', 'crème', '2']);
  });

  it('scores the F1 of the two word bags, repeated words counted', () => {
    const score = wordBagScore('the cat the hat', 'the cat sat');
    expect(score.precision).toBeCloseTo(2 / 3);
    expect(score.recall).toBeCloseTo(2 / 4);
    expect(score.f1).toBeCloseTo((2 * (2 / 3) * 0.5) / (2 / 3 + 0.5));
  });

  it('scores an empty truth 1 for an empty prediction, else 0 (as evaluate.py)', () => {
    expect(wordBagScore('', '').f1).toBe(1);
    expect(wordBagScore('', 'menu').f1).toBe(0);
    expect(wordBagScore('text', '').f1).toBe(0);
  });

  it('finds snippets as whole words in order, across Markdown emphasis', () => {
    const line = wordLine('At **Scratch Culinary**, we cook.');
    expect(snippetShare(line, ['At Scratch Culinary, we', 'Home'])).toBe(0.5);
    expect(snippetShare(wordLine('Homepage'), ['Home'])).toBe(0);
    expect(snippetShare(line, [])).toBeUndefined();
  });
});

describe('the benchmark plumbing', () => {
  it('splits pages into halves by file name, the same every time', () => {
    expect(splitHalf('0001.html.gz')).toBe(splitHalf('0001.html.gz'));
    const halves = Array.from({ length: 200 }, (_, i) => splitHalf(`${i}.html.gz`));
    expect(halves.filter((half) => half === 'tuning').length).toBeGreaterThan(70);
    expect(halves.filter((half) => half === 'held-out').length).toBeGreaterThan(70);
  });

  it('scores AEB’s body without the headline Tabhive keeps for callers', () => {
    expect(withoutHeadlines('# Title\n\nBody text\n\n## Section')).toBe('\nBody text\n\n## Section');
  });
});
