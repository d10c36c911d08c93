import { describe, expect, it } from 'vitest';
import { parseSitemap } from '../../../server/products/jobs/parse-sitemap';
import { parseRobotsTxt, pathMatches } from '../../../server/products/jobs/robots-txt';

const allows = (robots: string, path: string) =>
  parseRobotsTxt(robots).allows(new URL(path, 'https://s.test'));

describe('robots.txt', () => {
  it('uses the FirecrawlAgent group when there is one, else *', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: FirecrawlAgent\nDisallow: /private/\n';
    expect(allows(text, '/docs')).toBe(true);
    expect(allows(text, '/private/a')).toBe(false);
    expect(allows('User-agent: other\nDisallow: /\n', '/a')).toBe(true);
  });

  it('lets the longest rule win, Allow on a tie, with * and $', () => {
    const text = 'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\n';
    expect(allows(text, '/a/c')).toBe(false);
    expect(allows(text, '/a/b/c')).toBe(true);
    expect(allows(text, '/x/y.pdf')).toBe(false);
    expect(allows(text, '/x/y.pdf?z')).toBe(true);
    expect(pathMatches('/*/b', '/a/x/b')).toBe(true);
  });

  it('reads groups with several agents, Crawl-delay, Sitemap lines and comments', () => {
    const rules = parseRobotsTxt(
      '# hi\nUser-agent: a\nUser-agent: *\nCrawl-delay: 2 # slow\nDisallow: /x\nSitemap: https://s.test/map.xml\n',
    );
    expect(rules.crawlDelay).toBe(2);
    expect(rules.sitemaps).toEqual(['https://s.test/map.xml']);
    expect(rules.allows(new URL('https://s.test/x/1'))).toBe(false);
  });
});

describe('sitemaps', () => {
  it('separates pages from nested sitemaps and decodes entities', () => {
    expect(
      parseSitemap(
        '<urlset><url><loc> https://s.test/a?x=1&amp;y=2 </loc></url><url><loc>https://s.test/more.xml</loc></url></urlset>',
      ),
    ).toEqual({ pages: ['https://s.test/a?x=1&y=2'], sitemaps: ['https://s.test/more.xml'] });
    expect(
      parseSitemap('<sitemapindex><sitemap><loc>https://s.test/s1</loc></sitemap></sitemapindex>'),
    ).toEqual({
      pages: [],
      sitemaps: ['https://s.test/s1'],
    });
  });
});
