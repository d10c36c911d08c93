import Firecrawl, { FirecrawlAppV1 } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMapSite } from '../helpers/map-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startMapSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startMapSite();
  tabhive = await startTestTabhive();
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

/** A map's URLs relative to map.localhost; other hosts keep their host. */
const where = (links: Array<{ url: string }>) =>
  links.map(({ url }) => {
    const parsed = new URL(url);
    const path = `${parsed.pathname}${parsed.search}`;
    return parsed.hostname === 'map.localhost' ? path : `${parsed.hostname}${path}`;
  });

async function map(body: Record<string, unknown>) {
  const response = await tabhive.post('/v2/map', { url: site.url('/'), ...body });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json.links as Array<{ url: string; title?: string; description?: string }>;
}

describe('POST /v2/map', () => {
  it('lists sitemap URLs (through an index and a gzipped child), linked pages and subdomains, filtered', async () => {
    const links = await map({});
    const paths = where(links);
    expect(paths[0]).toBe('/');
    expect(paths).toEqual(
      expect.arrayContaining([
        // As the site writes it: its sitemap and links say `/docs/`.
        '/docs/',
        '/docs/getting-started.html',
        '/docs/api-reference.html',
        '/pricing.html',
        '/about.html',
        '/blog/hello-world.html',
        'blog.map.localhost/post-1.html',
        '/only-linked.html',
      ]),
    );
    // robots.txt disallows /private/; images are no pages; other sites are not this site.
    expect(paths.filter((path) => /private|logo|other\.localhost|\?/.test(path))).toEqual([]);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).not.toContain('/docs');
    // The start page was rendered: its title and description come along.
    expect(links[0]).toMatchObject({ title: 'Map Site', description: 'The home page.' });
  });

  it('keeps to the exact host without includeSubdomains, and keeps queries when asked', async () => {
    const paths = where(await map({ includeSubdomains: false, ignoreQueryParameters: false }));
    expect(paths.some((path) => path.startsWith('blog.map.localhost'))).toBe(false);
    expect(paths).toContain('/about.html?ref=sitemap');
  });

  it('answers from the sitemaps only, or without them', async () => {
    const only = where(await map({ sitemap: 'only' }));
    expect(only).toContain('/docs/api-reference.html');
    expect(only).not.toContain('/only-linked.html');
    const skip = where(await map({ sitemap: 'skip' }));
    expect(skip).toContain('/only-linked.html');
    expect(skip).not.toContain('/about.html');
  });

  it('orders results by relevance to `search` and cuts them to `limit`', async () => {
    const ranked = where(await map({ search: 'api reference' }));
    expect(ranked[0]).toBe('/docs/api-reference.html');
    const pricing = where(await map({ search: 'pricing', limit: 2 }));
    expect(pricing).toHaveLength(2);
    expect(pricing[0]).toBe('/pricing.html');
  });

  it('keeps to the start path with filterByPath', async () => {
    const paths = where(await map({ url: site.url('/docs/') }));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((path) => path.startsWith('/docs'))).toBe(true);
  });

  it('gets richer and skips refetching sitemaps as Tabhive sees more of the site', async () => {
    const sitemapFetches = () => site.hits.filter((hit) => hit.endsWith('/sitemap-index.xml')).length;
    const before = sitemapFetches();
    expect(where(await map({}))).not.toContain('/docs/deep-dive.html');
    // A scrape with links teaches the index a page no sitemap lists and the home page does not link.
    const scraped = await tabhive.post('/v2/scrape', {
      url: site.url('/docs/getting-started.html'),
      formats: ['links'],
    });
    expect(scraped.status).toBe(200);
    await waitUntil(
      async () => where(await map({})).includes('/docs/deep-dive.html'),
      20_000,
      'the scraped page links to reach the map',
    );
    const links = await map({ search: 'getting started' });
    expect(links[0]).toMatchObject({ title: 'Getting started', description: 'Install and first steps.' });
    // The sitemaps were read once; later maps answered from the index.
    expect(sitemapFetches()).toBe(before);
  });

  it('learns the links of crawled pages, also those the crawl does not follow', async () => {
    expect(where(await map({}))).not.toContain('/pricing/enterprise.html');
    const crawl = await tabhive.post('/v2/crawl', {
      url: site.url('/pricing.html'),
      limit: 1,
      sitemap: 'skip',
    });
    expect(crawl.status).toBe(200);
    await waitUntil(
      async () => where(await map({})).includes('/pricing/enterprise.html'),
      30_000,
      'the crawled page links to reach the map',
    );
  });

  it('does not show URLs another team saw through its own browser', async () => {
    await tabhive.tabhive.stores.mapIndex.record([
      {
        site: `map.localhost:${site.port}`,
        domain: 'map.localhost',
        url: site.url('/team-only.html'),
        scope: 'another-team',
      },
    ]);
    expect(where(await map({}))).not.toContain('/team-only.html');
  });

  it('answers 408 MAP_TIMEOUT past its timeout', async () => {
    const response = await tabhive.post('/v2/map', { url: site.url('/'), timeout: 1 });
    expect(response.status).toBe(408);
    expect(response.json).toEqual({ success: false, code: 'MAP_TIMEOUT', error: 'Map timed out' });
  });

  it('refuses unknown keys, bad limits and patterns RE2 cannot compile', async () => {
    expect((await tabhive.post('/v2/map', { url: site.url('/'), nope: 1 })).status).toBe(400);
    expect((await tabhive.post('/v2/map', { url: site.url('/'), limit: 100_001 })).status).toBe(400);
    const pattern = await tabhive.post('/v2/map', { url: site.url('/'), includePaths: ['(?<=x)'] });
    expect(pattern.status).toBe(400);
  });
});

describe('POST /v1/map', () => {
  it('answers plain strings, the input URL first', async () => {
    const response = await tabhive.post('/v1/map', { url: site.url('/docs/'), limit: 3 });
    expect(response.status).toBe(200);
    expect(response.json.links[0]).toBe(site.url('/docs/'));
    expect(response.json.links).not.toContain(site.url('/docs'));
    expect(response.json.links).toHaveLength(3);
    expect(response.json.links.every((link: unknown) => typeof link === 'string')).toBe(true);
  });

  it('reads ignoreSitemap and sitemapOnly', async () => {
    const only = await tabhive.post('/v1/map', { url: site.url('/'), sitemapOnly: true });
    expect(only.json.links).not.toContain(site.url('/only-linked.html'));
    expect(only.json.links).toContain(site.url('/about.html'));
    const ignored = await tabhive.post('/v1/map', { url: site.url('/'), ignoreSitemap: true });
    expect(ignored.json.links).toContain(site.url('/only-linked.html'));
    // Listed only in a sitemap: no page Tabhive saw links to it.
    expect(ignored.json.links).not.toContain(site.url('/about.html'));
  });
});

describe('the official SDK', () => {
  it('map() and the v1 mapUrl() work against Tabhive', async () => {
    const firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const data = await firecrawl.map(site.url('/'), { search: 'pricing', limit: 5 });
    expect(data.links[0]?.url).toBe(site.url('/pricing.html'));
    expect(data.links.length).toBeLessThanOrEqual(5);

    const v1 = new FirecrawlAppV1({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const result = await v1.mapUrl(site.url('/'), { includeSubdomains: false });
    expect(result.success).toBe(true);
    if (!result.success || !('links' in result)) throw new Error('mapUrl failed');
    expect(result.links).toContain(site.url('/only-linked.html'));
    expect(result.links?.some((link) => link.includes('blog.map.localhost'))).toBe(false);
  });
});
