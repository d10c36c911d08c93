import { describe, expect, it } from 'vitest';
import { FormatsV2 } from '../../../shared/api/v2/formats';
import { scrapeCredits } from '../../../server/scrape/admit/scrape-credits';

const formats = (value: unknown[]) => FormatsV2.parse(value);

describe('scrapeCredits', () => {
  it('bills 1, or 5 with json extraction, and 4 more on a stealth browser (docs/wire-contract.md §9)', () => {
    expect(scrapeCredits({ formats: formats(['markdown', 'summary']) })).toBe(1);
    expect(scrapeCredits({ formats: formats(['json']) })).toBe(5);
    expect(
      scrapeCredits({ formats: formats(['markdown', { type: 'changeTracking', modes: ['git-diff'] }]) }),
    ).toBe(1);
    expect(
      scrapeCredits({ formats: formats(['markdown', { type: 'changeTracking', modes: ['json'] }]) }),
    ).toBe(5);
    expect(scrapeCredits({ formats: formats(['json']), proxyUsed: 'stealth' })).toBe(9);
    expect(scrapeCredits({ proxyUsed: 'stealth', pdfPages: 3 })).toBe(7);
  });
});
