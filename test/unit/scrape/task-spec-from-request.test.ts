import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { PageTaskSpec } from '../../../shared/protocol/messages';
import { taskSpecFromRequest } from '../../../server/scrape/capture/task-spec-from-request';
import { cacheKey } from '../../../server/scrape/capture/cache-key';

const spec = (body: Record<string, unknown>) => {
  const request = ScrapeRequestV2.parse({ url: 'https://a.test/page', ...body });
  return taskSpecFromRequest(request, new URL(request.url.url));
};

describe('the page task for a scrape request', () => {
  it('is just the URL and waitFor at the v2 defaults', () => {
    expect(spec({})).toEqual({ url: 'https://a.test/page', waitForMs: 0, skipMedia: true });
  });

  it('passes actions, headers, mobile, location and the settings that differ from v2 defaults', () => {
    const actions = [
      { type: 'click', selector: '#go' },
      { type: 'pdf', format: 'A4' },
    ];
    const result = spec({
      actions,
      headers: { Cookie: 'a=b' },
      mobile: true,
      location: { country: 'de', languages: ['de-DE'] },
      blockAds: false,
      skipTlsVerification: false,
      waitFor: 500,
    });
    expect(result).toEqual({
      url: 'https://a.test/page',
      waitForMs: 500,
      actions: [
        { type: 'click', selector: '#go', all: false },
        { type: 'pdf', format: 'A4', landscape: false, scale: 1 },
      ],
      headers: { Cookie: 'a=b' },
      mobile: true,
      location: { country: 'DE', languages: ['de-DE'] },
      blockAds: false,
      skipTlsVerification: false,
    });
    expect(PageTaskSpec.safeParse(result).success).toBe(true);
  });

  it('turns the screenshot format into one last screenshot action', () => {
    expect(
      spec({
        actions: [{ type: 'scrape' }],
        formats: ['markdown', { type: 'screenshot', fullPage: true, quality: 80 }],
      }).actions,
    ).toEqual([{ type: 'scrape' }, { type: 'screenshot', fullPage: true, quality: 80 }]);
  });

  it('fits 50 actions plus the screenshot format in the protocol', () => {
    const result = spec({
      actions: Array.from({ length: 50 }, () => ({ type: 'scrape' })),
      formats: ['screenshot'],
    });
    expect(result.actions).toHaveLength(51);
    expect(PageTaskSpec.safeParse(result).success).toBe(true);
  });

  it('skips media only when nothing requested shows it', () => {
    expect(spec({ formats: ['markdown', 'html', 'links', 'images'] }).skipMedia).toBe(true);
    expect(spec({ formats: ['markdown', 'screenshot'] }).skipMedia).toBeUndefined();
    expect(spec({ formats: [{ type: 'screenshot', fullPage: true }] }).skipMedia).toBeUndefined();
    expect(spec({ formats: ['branding'] }).skipMedia).toBeUndefined();
    expect(spec({ actions: [{ type: 'screenshot' }] }).skipMedia).toBeUndefined();
    expect(spec({ actions: [{ type: 'pdf' }] }).skipMedia).toBeUndefined();
    expect(spec({ actions: [{ type: 'click', selector: '#go' }] }).skipMedia).toBe(true);
    expect(spec({ blockMedia: false }).skipMedia).toBeUndefined();
  });

  it('keeps a capture made with media loaded apart in the cache, and default keys unchanged', () => {
    const key = (body: Record<string, unknown>) =>
      cacheKey(ScrapeRequestV2.parse({ url: 'https://a.test/page', ...body }));
    expect(key({ blockMedia: true })).toBe(key({}));
    expect(key({ blockMedia: false })).not.toBe(key({}));
  });
});
