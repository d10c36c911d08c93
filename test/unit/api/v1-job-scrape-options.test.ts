import { describe, expect, it } from 'vitest';
import { BatchScrapeRequestV1 } from '../../../shared/api/v1/batch-scrape-request';
import { CrawlRequestV1 } from '../../../shared/api/v1/crawl-request';

const schema = { type: 'object', properties: { price: { type: 'number' } } };

describe('v1 scrape options of crawl and batch scrape', () => {
  it('carry the json options into the v2 json format, as /v1/scrape does', () => {
    const crawl = CrawlRequestV1.parse({
      url: 'https://site.test',
      scrapeOptions: { formats: ['markdown', 'json'], jsonOptions: { schema, prompt: 'the price' } },
    });
    expect(crawl.jsonKey).toBe('json');
    expect(crawl.scrapeOptions.formats).toEqual([
      { type: 'markdown' },
      { type: 'json', schema, prompt: 'the price' },
    ]);

    const batch = BatchScrapeRequestV1.parse({
      urls: ['https://site.test/a'],
      formats: ['extract', 'screenshot@fullPage'],
      extract: { schema },
    });
    expect(batch.jsonKey).toBe('extract');
    expect(batch.scrapeOptions.formats).toEqual([
      { type: 'json', schema },
      { type: 'screenshot', fullPage: true },
    ]);
  });

  it('apply the v1 defaults, but no timeout default outside /v1/scrape', () => {
    const { scrapeOptions } = CrawlRequestV1.parse({ url: 'https://site.test' });
    expect(scrapeOptions).toMatchObject({
      proxy: 'basic',
      skipTlsVerification: false,
      maxAge: 0,
      parsers: ['pdf'],
    });
    expect(scrapeOptions.timeout).toBeUndefined();
    const { scrapeOptions: batchOptions } = BatchScrapeRequestV1.parse({
      urls: ['https://site.test'],
      parsePDF: false,
    });
    expect(batchOptions.parsers).toEqual([]);
  });

  it('enforce the v1 rule that json needs its options and vice versa', () => {
    expect(() =>
      CrawlRequestV1.parse({ url: 'https://site.test', scrapeOptions: { formats: ['json'] } }),
    ).toThrow(/corresponding options must be provided/);
    expect(() =>
      BatchScrapeRequestV1.parse({ urls: ['https://site.test'], jsonOptions: { schema } }),
    ).toThrow(/corresponding options must be provided/);
  });
});

describe('v1 crawl request url checks', () => {
  it('reports a url that is not one as a validation issue, not by throwing in the maxDepth rule', () => {
    const parsed = CrawlRequestV1.safeParse({ url: `\u0012${'*'.repeat(9000)}`, maxDepth: 2 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([['url']]);
    const bad = CrawlRequestV1.safeParse({ url: 'http://exa mple.com/a/b/c' });
    expect(bad.success).toBe(false);
  });
});
