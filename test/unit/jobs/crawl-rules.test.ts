import { describe, expect, it } from 'vitest';
import {
  baseDomain,
  compilePatterns,
  inCrawlScope,
  judgeLink,
  judgeTarget,
  pathDepth,
  PatternError,
  urlKey,
  type CrawlRules,
} from '../../../server/products/jobs/crawl-rules';
import { parseRobotsTxt } from '../../../server/products/jobs/robots-txt';

const RULES: CrawlRules = {
  includePaths: [],
  excludePaths: [],
  regexOnFullURL: false,
  maxDiscoveryDepth: undefined,
  maxPathDepth: 9999,
  crawlEntireDomain: false,
  allowExternalLinks: false,
  allowSubdomains: false,
  ignoreQueryParameters: false,
  deduplicateSimilarURLs: true,
};
const START = new URL('https://site.test/docs');

function judge(href: string, rules: Partial<CrawlRules> = {}, fromDepth = 0, robots?: string) {
  const all = { ...RULES, ...rules };
  return judgeLink({
    link: new URL(href),
    start: START,
    fromDepth,
    rules: all,
    patterns: compilePatterns(all),
    robots: robots === undefined ? undefined : parseRobotsTxt(robots),
  });
}

describe('crawl link rules', () => {
  it('keeps to the start path, as a plain prefix, unless crawlEntireDomain', () => {
    expect(judge('https://site.test/docs/a')).toBe('follow');
    expect(judge('https://site.test/docs-old')).toBe('follow');
    expect(judge('https://site.test/blog')).toBe('skip');
    expect(judge('https://site.test/blog', { crawlEntireDomain: true })).toBe('follow');
    expect(judge('https://www.site.test/docs/a')).toBe('follow');
  });

  it('matches include and exclude patterns unanchored on the path, or on the full URL', () => {
    expect(judge('https://site.test/docs/blog/x', { includePaths: ['blog/.*'] })).toBe('follow');
    expect(judge('https://site.test/docs/x', { includePaths: ['blog/.*'] })).toBe('skip');
    expect(judge('https://site.test/docs/x?blog/1', { includePaths: ['blog/.*'] })).toBe('skip');
    expect(judge('https://site.test/docs/private/a', { excludePaths: ['private'] })).toBe('skip');
    expect(
      judge('https://site.test/docs/a', {
        regexOnFullURL: true,
        includePaths: ['^https://site\\.test/docs/a$'],
      }),
    ).toBe('follow');
  });

  it('refuses what RE2 cannot compile instead of dropping it', () => {
    expect(() => compilePatterns({ includePaths: ['(?=x)'], excludePaths: [] })).toThrow(PatternError);
    expect(() => compilePatterns({ includePaths: [], excludePaths: ['(a'] })).toThrow(/\(a/);
    // Catastrophic for a backtracking engine, linear for RE2.
    const { include } = compilePatterns({ includePaths: ['^(a+)+$'], excludePaths: [] });
    const started = performance.now();
    expect(include[0]!.matcher(`${'a'.repeat(50_000)}b`).find()).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('stops at maxDiscoveryDepth and at the path depth', () => {
    expect(judge('https://site.test/docs/a', { maxDiscoveryDepth: 1 }, 0)).toBe('follow');
    expect(judge('https://site.test/docs/a', { maxDiscoveryDepth: 1 }, 1)).toBe('skip');
    expect(judge('https://site.test/docs/a/b', { maxPathDepth: 2 })).toBe('skip');
    expect(pathDepth(new URL('https://site.test/a/b/index.html'))).toBe(2);
  });

  it('follows subdomains and other sites only when asked, never social networks or bare home pages', () => {
    expect(judge('https://blog.site.test/docs/x')).toBe('skip');
    expect(judge('https://blog.site.test/docs/x', { allowSubdomains: true })).toBe('follow');
    expect(judge('https://other.test/docs/x', { allowSubdomains: true })).toBe('skip');
    expect(judge('https://other.test/docs/x', { allowExternalLinks: true })).toBe('follow');
    expect(judge('https://other.test/', { allowExternalLinks: true })).toBe('skip');
    expect(judge('https://twitter.com/docs/x', { allowExternalLinks: true })).toBe('skip');
    expect(baseDomain('www.a.b.site.test')).toBe('site.test');
  });

  it('holds sitemap entries to the same host rules as links', () => {
    const scoped = (href: string, rules: Partial<CrawlRules> = {}) =>
      inCrawlScope(new URL(href), START, { ...RULES, ...rules });
    expect(scoped('https://site.test/docs/listed')).toBe(true);
    expect(scoped('https://www.site.test/docs/listed')).toBe(true);
    expect(scoped('https://elsewhere.test/docs/listed')).toBe(false);
    expect(scoped('https://elsewhere.test/docs/listed', { allowExternalLinks: true })).toBe(true);
    expect(scoped('https://blog.site.test/docs/listed')).toBe(false);
    expect(scoped('https://blog.site.test/docs/listed', { allowSubdomains: true })).toBe(true);
    expect(scoped('ftp://site.test/docs/listed')).toBe(false);
  });

  it('skips fragments (except #/ routes), static files and what robots.txt disallows', () => {
    expect(judge('https://site.test/docs/a#top')).toBe('skip');
    expect(judge('https://site.test/docs/a#/route')).toBe('follow');
    expect(judge('https://site.test/docs/logo.png')).toBe('skip');
    expect(judge('https://site.test/docs/manual.pdf')).toBe('follow');
    expect(judge('https://site.test/docs/secret', {}, 0, 'User-agent: *\nDisallow: /docs/secret')).toBe(
      'robots',
    );
    expect(
      judgeTarget({
        url: new URL('https://site.test/docs/secret'),
        start: START,
        rules: RULES,
        patterns: compilePatterns(RULES),
        robots: parseRobotsTxt('User-agent: *\nDisallow: /'),
      }),
    ).toBe('robots');
  });

  it('de-duplicates similar URLs and, when asked, query variants', () => {
    const key = (href: string, rules: Partial<CrawlRules> = {}) =>
      urlKey(new URL(href), { ...RULES, ...rules });
    expect(key('http://www.site.test/docs/')).toBe(key('https://site.test/docs/index.html'));
    expect(key('https://site.test/docs#a')).toBe(key('https://site.test/docs'));
    expect(key('https://site.test/a?x=1')).not.toBe(key('https://site.test/a?x=2'));
    expect(key('https://site.test/a?x=1', { ignoreQueryParameters: true })).toBe(
      key('https://site.test/a?x=2', { ignoreQueryParameters: true }),
    );
    expect(key('https://site.test/a/', { deduplicateSimilarURLs: false })).not.toBe(
      key('https://site.test/a', { deduplicateSimilarURLs: false }),
    );
  });
});
