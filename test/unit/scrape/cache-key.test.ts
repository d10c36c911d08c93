import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { cacheKey, normalizeCacheUrl } from '../../../server/scrape/capture/cache-key';
import { mayReadCache, mayWriteCache } from '../../../server/scrape/capture/cache-policy';

const key = (body: Record<string, unknown>) => cacheKey(ScrapeRequestV2.parse(body));
const request = (body: Record<string, unknown>) =>
  ScrapeRequestV2.parse({ url: 'https://site.test/', ...body });

describe('cache URL normalisation (docs/wire-contract.md §10)', () => {
  it.each([
    ['http://www.site.test/', 'https://site.test'],
    ['https://site.test:443/docs/', 'https://site.test/docs'],
    ['http://site.test:80/index.html', 'https://site.test'],
    ['https://site.test/a/index.php?x=1#top', 'https://site.test/a?x=1'],
    ['http://127.0.0.1:8080/page#frag', 'https://127.0.0.1:8080/page'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeCacheUrl(input)).toBe(expected);
  });
});

describe('cache keys', () => {
  it('are the same for URLs that normalise alike and for options that do not change the capture', () => {
    expect(key({ url: 'http://www.site.test/' })).toBe(
      key({ url: 'https://site.test', formats: ['links', 'html'] }),
    );
    expect(key({ url: 'https://site.test/', onlyMainContent: false })).toBe(
      key({ url: 'https://site.test/' }),
    );
  });

  it.each([
    { mobile: true },
    { blockAds: false },
    { location: { country: 'DE' } },
    { location: { country: 'US', languages: ['en-US'] } },
    { formats: ['markdown', 'screenshot'] },
    { formats: ['markdown', { type: 'screenshot', fullPage: true }] },
    { parsers: [] },
    { skipTlsVerification: false },
  ])('differ when %o changes what the browser sees', (options) => {
    expect(key({ url: 'https://site.test/', ...options })).not.toBe(key({ url: 'https://site.test/' }));
  });
});

describe('cache eligibility', () => {
  it('reads by default and not for maxAge 0, waitFor, headers, actions, change tracking, stealth or ZDR', () => {
    expect(mayReadCache(request({}))).toBe(true);
    for (const body of [
      { maxAge: 0 },
      { waitFor: 500 },
      { headers: { cookie: 'a=b' } },
      { actions: [{ type: 'wait', milliseconds: 100 }] },
      { formats: ['markdown', 'changeTracking'] },
      { proxy: 'stealth' },
      { zeroDataRetention: true },
    ]) {
      expect(mayReadCache(request(body)), JSON.stringify(body)).toBe(false);
    }
  });

  it('writes unless told not to, or the page was changed for this caller', () => {
    expect(mayWriteCache(request({}))).toBe(true);
    expect(mayWriteCache(request({ waitFor: 500 }))).toBe(true);
    for (const body of [
      { storeInCache: false },
      { zeroDataRetention: true },
      { headers: { cookie: 'a=b' } },
      { actions: [{ type: 'wait', milliseconds: 100 }] },
      { formats: ['markdown', 'changeTracking'] },
    ]) {
      expect(mayWriteCache(request(body)), JSON.stringify(body)).toBe(false);
    }
  });
});
