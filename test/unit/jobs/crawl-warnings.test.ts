import { describe, expect, it } from 'vitest';
import type { CrawlRules } from '../../../server/products/jobs/crawl-rules';
import { startFailureWarning, startPathWarning } from '../../../server/products/jobs/crawl-warnings';

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

const at = (startUrl: string, rules: Partial<CrawlRules> = {}) =>
  startPathWarning({ startUrl, rules: { ...RULES, ...rules } });

describe('startPathWarning', () => {
  it('warns about a start at a page, naming its folder, the site root and crawlEntireDomain', () => {
    expect(at('https://site.test/docs/page.html')).toBe(
      'The crawl starts at a page (/docs/page.html), so it only follows URLs whose path begins with ' +
        '/docs/page.html: in effect that page alone. To crawl the pages it links to, set ' +
        'crawlEntireDomain: true, or start at its folder (https://site.test/docs/) or the site root (https://site.test/).',
    );
    expect(at('https://site.test/index.php?x=1')).toContain('start at the site root (https://site.test/)');
  });

  it('stays quiet for folders, the root, extensionless paths and crawlEntireDomain', () => {
    expect(at('https://site.test/')).toBeUndefined();
    expect(at('https://site.test/docs/')).toBeUndefined();
    expect(at('https://site.test/docs')).toBeUndefined();
    expect(at('https://site.test/docs/page.html', { crawlEntireDomain: true })).toBeUndefined();
  });
});

describe('startFailureWarning', () => {
  const crawl = { startUrl: 'http://127.0.0.1:9/' };
  const errorsPath = '/v2/crawl/j1/errors';

  it('names the start URL and the stored reason, with its code', () => {
    const warning = startFailureWarning({
      crawl,
      errorsPath,
      failed: [
        { depth: 1, url: 'http://127.0.0.1:9/other', error: '{"error":"not this one"}' },
        { depth: 0, url: crawl.startUrl, error: '{"code":"SCRAPE_SITE_ERROR","error":"connection refused"}' },
      ],
    });
    expect(warning).toBe(
      'The crawl found no pages: its start URL http://127.0.0.1:9/ could not be fetched ' +
        '(SCRAPE_SITE_ERROR: connection refused). Check the address and that the site is up; ' +
        '/v2/crawl/j1/errors lists the failure.',
    );
  });

  it('matches the start task by its normalised URL, and reads a plain-text reason', () => {
    const warning = startFailureWarning({
      crawl: { startUrl: 'http://127.0.0.1:9' },
      errorsPath,
      failed: [{ depth: 0, url: 'http://127.0.0.1:9/', error: 'socket hang up' }],
    });
    expect(warning).toContain('could not be fetched (socket hang up)');
  });

  it('says the start page did not pass the filters when that is what the runner recorded', () => {
    const warning = startFailureWarning({
      crawl,
      errorsPath,
      failed: [
        {
          depth: 0,
          url: crawl.startUrl,
          error: JSON.stringify({
            error: 'The start URL does not pass the crawl filters (includePaths, excludePaths, robots.txt)',
          }),
        },
      ],
    });
    expect(warning).toMatch(
      /^The crawl kept no pages: its start URL http:\/\/127\.0\.0\.1:9\/ does not pass/,
    );
  });

  it('is undefined when the start page did not fail', () => {
    expect(
      startFailureWarning({
        crawl,
        errorsPath,
        failed: [{ depth: 1, url: 'http://127.0.0.1:9/a', error: 'x' }],
      }),
    ).toBeUndefined();
  });
});
