import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { parseCrawlPrompt } from '../../../server/products/crawl-prompt/parse-crawl-prompt';
import type { PromptCrawlOptions } from '../../../server/products/crawl-prompt/prompt-crawl-options';

const BLOG = '/blog(?:/|$)';
const DOCS = '/(?:docs|documentation)(?:/|$)';
const API = '/(?:api|api-reference|reference)(?:/|$)';
const CHANGELOG = '/(?:changelog|release-notes|releases)(?:/|$)';

/** Prompt → the options the rule-based reader must produce, exactly. */
const TABLE: Array<[string, PromptCrawlOptions]> = [
  ['only blog posts', { includePaths: [BLOG] }],
  ['Only the blog', { includePaths: [BLOG] }],
  ['the docs but not the API reference', { includePaths: [DOCS], excludePaths: [API] }],
  [
    'Crawl the documentation, but skip the API docs and the changelog',
    { includePaths: [DOCS], excludePaths: [API, CHANGELOG] },
  ],
  ['up to 50 pages', { limit: 50 }],
  ['at most 200 pages please', { limit: 200 }],
  ['no more than twenty pages', { limit: 20 }],
  ['just the first 10 blog posts', { limit: 10, includePaths: [BLOG] }],
  ['limit: 1,000', { limit: 1000 }],
  ['crawl a hundred pages of the docs', { limit: 100, includePaths: [DOCS] }],
  ['include subdomains', { allowSubdomains: true }],
  // A host name in the prompt names a site, not a section.
  ['also crawl the subdomains like blog.example.com', { allowSubdomains: true }],
  ['no subdomains', { allowSubdomains: false }],
  ['skip the sitemap', { sitemap: 'skip' }],
  ["don't use the sitemap, just follow links", { sitemap: 'skip' }],
  ['use the sitemap', { sitemap: 'include' }],
  ['two levels deep', { maxDiscoveryDepth: 2 }],
  ['go 3 clicks deep from the home page', { maxDiscoveryDepth: 3 }],
  ['max depth 4', { maxDiscoveryDepth: 4 }],
  ['only pages directly linked from the start page', { maxDiscoveryDepth: 1 }],
  ['just this page', { maxDiscoveryDepth: 0, sitemap: 'skip', limit: 1 }],
  ['ignore query strings', { ignoreQueryParameters: true }],
  ['strip URL parameters', { ignoreQueryParameters: true }],
  ['keep query strings, they matter here', { ignoreQueryParameters: false }],
  ['follow external links too', { allowExternalLinks: true }],
  ['stay on the same domain', { allowExternalLinks: false }],
  ['crawl the entire site', { crawlEntireDomain: true }],
  [
    'everything on the site except the blog and the forum',
    {
      crawlEntireDomain: true,
      excludePaths: [BLOG, '/(?:forum|forums|community)(?:/|$)'],
    },
  ],
  ['wait 2 seconds between pages', { delay: 2 }],
  ['500ms delay between requests', { delay: 0.5 }],
  ['crawl politely', { delay: 1 }],
  ["don't deduplicate similar URLs", { deduplicateSimilarURLs: false }],
  ['only pages under /guides/advanced', { includePaths: ['^/guides/advanced(?:/|$)'] }],
  ['exclude /admin and /login', { excludePaths: ['^/admin(?:/|$)', '^/login(?:/|$)'] }],
  ['only English pages', { includePaths: ['^/en(?:/|$)'] }],
  ['just the PDFs', { includePaths: ['\\.pdf$'] }],
  ['only the recipe pages', { includePaths: ['/recipes(?:/|$)'] }],
  ['only the shoe pages', { includePaths: ['/(?:shoes|shoe)(?:/|$)'] }],
  [
    'the shop, but exclude the sale pages and no PDFs',
    {
      includePaths: ['/(?:products|product|shop)(?:/|$)'],
      excludePaths: ['\\.pdf$', '/(?:sales|sale)(?:/|$)'],
    },
  ],
  [
    'Get up to 50 blog posts and docs pages, include subdomains, skip the sitemap, two levels deep, ignore query strings',
    {
      limit: 50,
      allowSubdomains: true,
      sitemap: 'skip',
      maxDiscoveryDepth: 2,
      ignoreQueryParameters: true,
      includePaths: [BLOG, DOCS],
    },
  ],
  ['Extract all blog posts and documentation', { includePaths: [BLOG, DOCS] }],
  [
    'pricing and careers pages only, not more than 5 pages',
    {
      limit: 5,
      includePaths: ['/pricing(?:/|$)', '/(?:careers|jobs)(?:/|$)'],
    },
  ],
];

describe('parseCrawlPrompt (rules, no model)', () => {
  it.each(TABLE)('%s', (prompt, expected) => {
    expect(parseCrawlPrompt(prompt)).toEqual(expected);
  });

  it('reads at least 30 prompts, and every pattern it writes compiles in RE2 and matches what it should', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    for (const [prompt] of TABLE) {
      const { includePaths = [], excludePaths = [] } = parseCrawlPrompt(prompt);
      for (const pattern of [...includePaths, ...excludePaths])
        expect(() => RE2JS.compile(pattern), pattern).not.toThrow();
    }
    const docs = RE2JS.compile(DOCS);
    expect(docs.matcher('/docs/intro').find()).toBe(true);
    expect(docs.matcher('/en/documentation').find()).toBe(true);
    expect(docs.matcher('/docsearch').find()).toBe(false);
  });

  it('understands nothing in a prompt without crawl instructions', () => {
    expect(parseCrawlPrompt('Hello there, how are you?')).toEqual({});
  });

  it('reads a 10 000-character prompt at once', () => {
    const long = `${'not the api reference and '.repeat(380)}up to 5 pages`;
    expect(parseCrawlPrompt(long.slice(-10_000))).toMatchObject({ limit: 5, excludePaths: [API] });
  });
});
