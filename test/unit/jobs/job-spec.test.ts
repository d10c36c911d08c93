import { describe, expect, it } from 'vitest';
import { CrawlRequestV1 } from '../../../shared/api/v1/crawl-request';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { crawlSpecFromV1, crawlSpecFromV2 } from '../../../server/products/jobs/job-spec';

describe('crawl specs', () => {
  it('give v1 and v2 requests the same rules where the versions agree', () => {
    const v2 = crawlSpecFromV2(
      CrawlRequestV2.parse({ url: 'https://site.test/docs', limit: 5, includePaths: ['^/docs'] }),
    );
    const v1 = crawlSpecFromV1(
      CrawlRequestV1.parse({ url: 'https://site.test/docs', limit: 5, includePaths: ['^/docs'] }),
    );
    expect(v2.crawl?.rules).toMatchObject({
      includePaths: ['^/docs'],
      crawlEntireDomain: false,
      maxPathDepth: 9999,
    });
    expect(v1.crawl?.rules).toMatchObject({
      includePaths: ['^/docs'],
      crawlEntireDomain: false,
      maxPathDepth: 10,
    });
    expect([v2.version, v1.version]).toEqual(['v2', 'v1']);
    expect(v2.crawl?.limit).toBe(5);
    expect(v1.crawl?.startUrl).toBe('https://site.test/docs');
  });

  it('map the v1-only names: allowBackwardLinks (unless crawlEntireDomain is sent), ignoreSitemap, maxDepth', () => {
    const backward = crawlSpecFromV1(
      CrawlRequestV1.parse({
        url: 'https://site.test',
        allowBackwardLinks: true,
        ignoreSitemap: true,
        maxDepth: 3,
      }),
    );
    expect(backward.crawl).toMatchObject({
      sitemap: 'skip',
      rules: { crawlEntireDomain: true, maxPathDepth: 3 },
    });
    expect(backward.options).toMatchObject({
      allowBackwardLinks: true,
      ignoreSitemap: true,
      maxDepth: 3,
      crawlEntireDomain: true,
    });
    const explicit = crawlSpecFromV1(
      CrawlRequestV1.parse({ url: 'https://site.test', allowBackwardLinks: true, crawlEntireDomain: false }),
    );
    expect(explicit.crawl?.rules.crawlEntireDomain).toBe(false);
  });

  it('remember that a v1 crawl with the extract format answers in `extract`', () => {
    const request = {
      url: 'https://site.test',
      scrapeOptions: { formats: ['extract'], extract: { schema: { type: 'object' } } },
    };
    expect(crawlSpecFromV1(CrawlRequestV1.parse(request)).jsonKey).toBe('extract');
    expect(crawlSpecFromV1(CrawlRequestV1.parse({ url: 'https://site.test' }))).not.toHaveProperty('jsonKey');
  });

  it('keep optional settings out of the stored spec when they were not given', () => {
    const spec = crawlSpecFromV2(CrawlRequestV2.parse({ url: 'https://site.test', sitemap: 'only' }));
    expect(spec).not.toHaveProperty('delay');
    expect(spec).not.toHaveProperty('webhook');
    expect(spec.options).not.toHaveProperty('maxDiscoveryDepth');
    expect(spec.options).toMatchObject({ sitemap: 'only' });
  });
});
