import { describe, expect, it } from 'vitest';
import { markdownText } from '../../../bench/quality/markdown-text';
import { scorePage, summarize, tokenize } from '../../../bench/quality/shingle-score';

describe('the article benchmark metric', () => {
  it('tokenises like Python’s Unicode \\w+', () => {
    expect(tokenize('Zoë’s 3rd café—naïve_test!')).toEqual(['Zoë', 's', '3rd', 'café', 'naïve_test']);
  });

  it('scores identical texts as all true positives', () => {
    expect(scorePage('one two three four five', 'one two three four five')).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('normalises tp, fp and fn to sum to 1', () => {
    // Truth shingles: a b c d, b c d e; predicted: a b c d, b c d x.
    expect(scorePage('a b c d e', 'a b c d x')).toEqual({ tp: 1 / 3, fp: 1 / 3, fn: 1 / 3 });
  });

  it('averages precision and recall over pages, then takes F1 of the means', () => {
    const summary = summarize(
      [
        { tp: 0.5, fp: 0.5, fn: 0 },
        { tp: 1, fp: 0, fn: 0 },
      ],
      1,
    );
    expect(summary.precision).toBe(0.75);
    expect(summary.recall).toBe(1);
    expect(summary.f1).toBeCloseTo(0.857, 3);
    expect(summary.accuracy).toBe(0.5);
  });

  it('leaves link targets and images out of the text it scores', () => {
    expect(markdownText('See [the docs](https://x.test/a_(b)) ![logo](https://x.test/l.png) now')).toBe(
      'See [the docs]   now',
    );
  });
});
