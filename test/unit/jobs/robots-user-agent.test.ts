import { describe, expect, it } from 'vitest';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { compilePatterns, judgeTarget, type CrawlRules } from '../../../server/products/jobs/crawl-rules';
import { crawlSpecFromV2 } from '../../../server/products/jobs/job-spec';
import { parseRobotsTxt, productToken } from '../../../server/products/jobs/robots-txt';

/** Treats two crawlers differently, and everyone else a third way. */
const ROBOTS = [
  'User-agent: FirecrawlAgent',
  'Disallow: /private/',
  'Crawl-delay: 1',
  '',
  'User-agent: PartnerBot/2.0',
  'User-agent: archiver',
  'Allow: /',
  'Disallow: /drafts/',
  'Crawl-delay: 5',
  '',
  'User-agent: *',
  'Disallow: /',
].join('\n');

const at = (path: string) => new URL(path, 'https://site.test');

describe('robots.txt read for another user agent', () => {
  it('takes the product token of an agent, case and version aside', () => {
    expect(['PartnerBot/2.0', 'partnerbot', ' Googlebot-News ', '*', '360Spider'].map(productToken)).toEqual([
      'partnerbot',
      'partnerbot',
      'googlebot-news',
      '*',
      '360spider',
    ]);
  });

  it('chooses the groups of the given token, else *, with their own Crawl-delay', () => {
    const robots = parseRobotsTxt(ROBOTS);
    expect([robots.allows(at('/docs')), robots.allows(at('/private/x')), robots.crawlDelay]).toEqual([
      true,
      false,
      1,
    ]);
    const partner = robots.forAgent('PartnerBot');
    expect([partner.allows(at('/private/x')), partner.allows(at('/drafts/1')), partner.crawlDelay]).toEqual([
      true,
      false,
      5,
    ]);
    expect(robots.forAgent('ARCHIVER/9').allows(at('/private/x'))).toBe(true);
    const stranger = robots.forAgent('SomeOtherBot');
    expect([stranger.allows(at('/docs')), stranger.crawlDelay]).toEqual([false, undefined]);
    // A token names a whole agent: PartnerBot's group is not Partner's.
    expect(robots.forAgent('Partner').allows(at('/docs'))).toBe(false);
    expect(partner.sitemaps).toEqual(robots.sitemaps);
  });

  it("is what a crawl's rules follow when they name robotsUserAgent", () => {
    const rules: CrawlRules = {
      includePaths: [],
      excludePaths: [],
      regexOnFullURL: false,
      maxDiscoveryDepth: undefined,
      maxPathDepth: 9999,
      crawlEntireDomain: true,
      allowExternalLinks: false,
      allowSubdomains: false,
      ignoreQueryParameters: false,
      deduplicateSimilarURLs: true,
    };
    const judge = (path: string, robotsUserAgent?: string) =>
      judgeTarget({
        url: at(path),
        start: at('/'),
        rules: { ...rules, robotsUserAgent },
        patterns: compilePatterns(rules),
        robots: parseRobotsTxt(ROBOTS),
      });
    expect([judge('/private/a'), judge('/drafts/a')]).toEqual(['robots', 'follow']);
    expect([judge('/private/a', 'PartnerBot'), judge('/drafts/a', 'PartnerBot')]).toEqual([
      'follow',
      'robots',
    ]);
  });

  it('travels from the request into the stored crawl spec, and null means the default', () => {
    const spec = crawlSpecFromV2(
      CrawlRequestV2.parse({ url: 'https://site.test/', robotsUserAgent: 'PartnerBot' }),
    );
    expect(spec.crawl?.rules.robotsUserAgent).toBe('PartnerBot');
    expect(spec.options.robotsUserAgent).toBe('PartnerBot');
    const plain = crawlSpecFromV2(CrawlRequestV2.parse({ url: 'https://site.test/', robotsUserAgent: null }));
    expect(plain.crawl?.rules).not.toHaveProperty('robotsUserAgent');
    expect(plain.options).not.toHaveProperty('robotsUserAgent');
  });

  it('reads no robots.txt and no sitemap for a cache-only crawl', () => {
    const spec = crawlSpecFromV2(
      CrawlRequestV2.parse({ url: 'https://site.test/', scrapeOptions: { lockdown: true } }),
    );
    expect([spec.crawl?.sitemap, spec.crawl?.ignoreRobotsTxt]).toEqual(['skip', true]);
    expect(spec.options).toMatchObject({ sitemap: 'skip', ignoreRobotsTxt: true });
    const minAge = crawlSpecFromV2(
      CrawlRequestV2.parse({ url: 'https://site.test/', scrapeOptions: { minAge: 1 } }),
    );
    expect([minAge.crawl?.sitemap, minAge.crawl?.ignoreRobotsTxt]).toEqual(['skip', true]);
  });
});
