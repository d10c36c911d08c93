import { describe, expect, it } from 'vitest';
import { ScrapeRequestV1 } from '../../../shared/api/v1/scrape-request';
import { BatchScrapeRequestV2 } from '../../../shared/api/v2/batch-scrape-request';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { SearchRequestV2 } from '../../../shared/api/v2/search-request';

const url = 'https://site.test/';
const issues = (result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('minAge, lockdown, redactPII and proxy "enhanced" in v2 scrape options', () => {
  it('accepts them, with redactPII as true or as an object', () => {
    const parsed = ScrapeRequestV2.parse({
      url,
      minAge: 60_000,
      maxAge: 3_600_000,
      lockdown: true,
      proxy: 'enhanced',
      redactPII: { mode: 'aggressive', entities: ['EMAIL', 'PERSON'], replaceStyle: 'mask' },
    });
    expect(parsed).toMatchObject({ minAge: 60_000, lockdown: true, proxy: 'enhanced' });
    expect(parsed.redactPII).toEqual({
      mode: 'aggressive',
      entities: ['EMAIL', 'PERSON'],
      replaceStyle: 'mask',
    });
    expect(ScrapeRequestV2.parse({ url, redactPII: true }).redactPII).toBe(true);
    expect(ScrapeRequestV2.parse({ url }).lockdown).toBeUndefined();
  });

  it.each([
    [
      { lockdown: true, maxAge: 0 },
      'maxAge: lockdown serves only a cached copy of the page, which cannot honour maxAge 0',
    ],
    [{ minAge: 10_000, maxAge: 5_000 }, 'maxAge: maxAge must be at least minAge'],
    [{ lockdown: true, waitFor: 1_000 }, 'waitFor: lockdown serves only a cached copy'],
    [{ minAge: 1, actions: [{ type: 'click', selector: 'a' }] }, 'actions: minAge serves only a cached copy'],
    [{ lockdown: true, headers: { cookie: 'a=b' } }, 'headers: lockdown serves only a cached copy'],
    [{ lockdown: true, proxy: 'stealth' }, 'proxy: lockdown serves only a cached copy'],
    [
      { lockdown: true, formats: ['markdown', 'changeTracking'] },
      'formats: lockdown serves only a cached copy',
    ],
    [{ lockdown: true, zeroDataRetention: true }, 'zeroDataRetention: lockdown serves only a cached copy'],
    [
      { redactPII: true, formats: ['markdown', 'changeTracking'] },
      'redactPII: redactPII cannot be combined with the changeTracking format',
    ],
    [
      { redactPII: { entities: ['SSN'] } },
      'redactPII: redactPII must be true, false or { mode?, entities?, replaceStyle? }',
    ],
    [{ redactPII: { style: 'tag' } }, 'redactPII: Unrecognized key: "style"'],
    [{ redactPII: 'yes' }, 'redactPII: redactPII must be true, false or'],
    [{ minAge: -1 }, 'minAge: Too small'],
    [{ proxy: 'residential' }, 'proxy: Invalid option'],
  ])('refuses %j', (body, message) => {
    const result = ScrapeRequestV2.safeParse({ url, ...body });
    expect(result.success).toBe(false);
    expect(
      issues(result).some((issue) => issue.startsWith(message)),
      issues(result).join('\n'),
    ).toBe(true);
  });

  it('says what is wrong inside the object form of redactPII', () => {
    const result = ScrapeRequestV2.safeParse({ url, redactPII: { entities: ['SSN'], replaceStyle: 'blur' } });
    const details = JSON.stringify(result.error?.issues);
    expect(details).toContain('"path":["entities",0]');
    expect(details).toContain('"path":["replaceStyle"]');
    expect(
      JSON.stringify(ScrapeRequestV2.safeParse({ url, redactPII: { entities: [] } }).error?.issues),
    ).toContain('entities must name at least one entity');
  });

  it('applies the same rules in batch scrape, crawl and search scrape options', () => {
    expect(BatchScrapeRequestV2.safeParse({ urls: [url], lockdown: true, maxAge: 0 }).success).toBe(false);
    expect(BatchScrapeRequestV2.parse({ urls: [url], lockdown: true, redactPII: true }).lockdown).toBe(true);
    expect(CrawlRequestV2.safeParse({ url, scrapeOptions: { minAge: 5, maxAge: 1 } }).success).toBe(false);
    expect(
      CrawlRequestV2.parse({ url, scrapeOptions: { minAge: 5, proxy: 'enhanced' } }).scrapeOptions.minAge,
    ).toBe(5);
    expect(
      SearchRequestV2.safeParse({ query: 'q', scrapeOptions: { lockdown: true, headers: { a: 'b' } } })
        .success,
    ).toBe(false);
    expect(
      SearchRequestV2.parse({ query: 'q', scrapeOptions: { redactPII: true } }).scrapeOptions.redactPII,
    ).toBe(true);
  });

  it('are v2 only: v1 refuses them as unknown keys', () => {
    for (const key of ['lockdown', 'minAge', 'redactPII']) {
      const result = ScrapeRequestV1.safeParse({ url, [key]: key === 'minAge' ? 1 : true });
      expect(issues(result).join('\n')).toContain('Unrecognized key');
    }
  });
});

describe('robotsUserAgent in v2 crawl requests', () => {
  it.each([['MyBot'], ['my-bot_2/1.4'], [null]])('accepts %j', (robotsUserAgent) => {
    expect(CrawlRequestV2.parse({ url, robotsUserAgent }).robotsUserAgent).toBe(robotsUserAgent);
  });

  it.each([['Mozilla/5.0 (compatible; MyBot/1.0)'], [''], ['*'], ['a'.repeat(201)]])(
    'refuses %j',
    (robotsUserAgent) => {
      expect(CrawlRequestV2.safeParse({ url, robotsUserAgent }).success).toBe(false);
    },
  );

  it('refuses sitemap "only" for a cache-only crawl, which fetches no sitemap', () => {
    const result = CrawlRequestV2.safeParse({ url, sitemap: 'only', scrapeOptions: { lockdown: true } });
    expect(issues(result).join('\n')).toContain('sitemap: sitemap "only" needs the site\'s sitemap');
  });
});
