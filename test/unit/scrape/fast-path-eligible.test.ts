import { describe, expect, it } from 'vitest';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { fastPathEligible } from '../../../server/scrape/capture/fast-path/fast-path-eligible';

const options = (body: Record<string, unknown>) => ScrapeOptionsV2.parse(body);

describe('which requests the HTTP fast path may take', () => {
  it('takes the formats made from the page alone, the newer text and media formats too', () => {
    expect(fastPathEligible(options({}))).toBe(true);
    expect(
      fastPathEligible(
        options({ formats: ['markdown', { type: 'question', question: 'Why?' }, 'product', 'video'] }),
      ),
    ).toBe(true);
  });

  it('leaves to a browser what only a browser shows: script-set attributes, a profile, a screenshot', () => {
    expect(
      fastPathEligible(
        options({ formats: [{ type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] }] }),
      ),
    ).toBe(false);
    expect(fastPathEligible(options({ profile: { name: 'shop' } }))).toBe(false);
    expect(fastPathEligible(options({ formats: ['screenshot'] }))).toBe(false);
  });
});
