import Firecrawl, { FirecrawlAppV1 } from 'firecrawl';

/** The v1 client's failure answer (the package does not export the type). */
interface ErrorResponse {
  success: false;
  error: string;
}
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { startLargePagesSite } from '../helpers/large-pages-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The official `firecrawl` npm package's feature-frozen v1 client (`FirecrawlAppV1`, also
 * `new Firecrawl().v1`), which LangChain's loaders and older integrations use, against the v1
 * routes: every method whose route Tabhive serves.
 */

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let largePages: Awaited<ReturnType<typeof startLargePagesSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let app: FirecrawlAppV1;

beforeAll(async () => {
  site = await startCrawlSite();
  largePages = await startLargePagesSite();
  tabhive = await startTestTabhive({ browsers: 2 });
  app = new FirecrawlAppV1({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await largePages?.close();
});

interface V1Document {
  markdown?: string;
  html?: string;
  metadata?: { sourceURL?: string };
}
const pathsOf = (docs: V1Document[]) =>
  docs.map((doc) => new URL(doc.metadata?.sourceURL ?? '').pathname).sort();

/** v1 methods answer `{ success: false, error }` or throw; the tests want the successful answer. */
function ok<T extends object>(result: T | ErrorResponse): T {
  if ('success' in result && result.success === false)
    throw new Error(`the v1 client reported: ${result.error}`);
  return result as T;
}

describe('JS SDK v1 client: scrape', () => {
  it('scrapeUrl() with the v1 scrape options', async () => {
    const result = ok(
      await app.scrapeUrl(site.url('/about.html'), {
        formats: ['markdown', 'html', 'rawHtml', 'links', 'screenshot@fullPage'],
        headers: { 'x-compat-suite': 'js-v1' },
        includeTags: ['main', 'nav'],
        excludeTags: ['script'],
        onlyMainContent: true,
        waitFor: 50,
        timeout: 30_000,
        mobile: false,
        skipTlsVerification: true,
        removeBase64Images: true,
        blockAds: true,
        proxy: 'basic',
        location: { country: 'US', languages: ['en-US'] },
        actions: [{ type: 'wait', milliseconds: 50 }],
        maxAge: 0,
        storeInCache: false,
        parsePDF: true,
      }),
    );
    expect(result.markdown).toContain('Content of /about.html');
    expect(result.html).toContain('<main>');
    expect(result.rawHtml).toContain('<nav>');
    expect(result.links).toContain(site.url('/'));
    expect(result.screenshot).toMatch(/^data:image\/png;base64,/);
    expect(result.metadata).toMatchObject({ statusCode: 200, sourceURL: site.url('/about.html') });
  });

  it('is the client that `new Firecrawl().v1` hands out', async () => {
    const v1 = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url }).v1;
    const result = ok(await v1.scrapeUrl(site.url('/docs/page-3.html'), { formats: ['markdown'] }));
    expect(result.markdown).toContain('Content of Doc 3');
  });
});

describe('JS SDK v1 client: crawl', () => {
  it('crawlUrl() polls to the end with the v1 crawler options', async () => {
    const result = ok(
      await app.crawlUrl(
        site.url('/'),
        {
          limit: 4,
          includePaths: ['^/(about\\.html|docs/)?$'],
          excludePaths: ['^/private/'],
          maxDepth: 2,
          maxDiscoveryDepth: 2,
          ignoreSitemap: true,
          ignoreQueryParameters: true,
          allowBackwardLinks: false,
          allowExternalLinks: false,
          deduplicateSimilarURLs: true,
          scrapeOptions: { formats: ['markdown', 'html'] },
        },
        1,
      ),
    );
    expect(result.status).toBe('completed');
    expect(pathsOf(result.data)).toEqual(['/', '/about.html', '/docs/']);
    expect(result.data.every((doc) => typeof doc.html === 'string')).toBe(true);
    // JS v1 follows `next` while the key exists: the last page must leave it out.
    expect(result).not.toHaveProperty('next');
  });

  it('asyncCrawlUrl(), checkCrawlStatus() with every page, checkCrawlErrors(), cancelCrawl()', async () => {
    const started = ok(
      await app.asyncCrawlUrl(
        largePages.url('/'),
        { limit: 4, scrapeOptions: { formats: ['rawHtml'] } },
        crypto.randomUUID(),
      ),
    );
    const id = started.id ?? '';
    let status = ok(await app.checkCrawlStatus(id));
    for (let polls = 0; status.status === 'scraping' && polls < 45; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      status = ok(await app.checkCrawlStatus(id));
    }
    expect(status.status).toBe('completed');
    // Three 3.6 MB pages do not fit one status page: the first page links the next.
    expect(status.data.length).toBeLessThan(4);
    expect(status.next).toContain(`/v1/crawl/${id}?skip=`);
    const all = ok(await app.checkCrawlStatus(id, true));
    expect(pathsOf(all.data)).toEqual(['/', '/1.html', '/2.html', '/3.html']);

    const errors = await app.checkCrawlErrors(id);
    expect(errors).toEqual({ errors: [], robotsBlocked: [] });
    const slow = ok(await app.asyncCrawlUrl(site.url('/docs/'), { limit: 40, delay: 1 }));
    expect(await app.cancelCrawl(slow.id ?? '')).toEqual({ status: 'cancelled' });
  });

  it('crawlUrlAndWatch() streams the crawl over the WebSocket', async () => {
    const watcher = await app.crawlUrlAndWatch(site.url('/docs/'), { limit: 3, ignoreSitemap: true });
    const documents: V1Document[] = [];
    watcher.addEventListener('document', (event) => {
      documents.push(event.detail as V1Document);
    });
    const done = await new Promise<{ status: string }>((resolve, reject) => {
      watcher.addEventListener('done', (event) => resolve(event.detail));
      watcher.addEventListener('error', (event) => reject(new Error(JSON.stringify(event.detail))));
    });
    expect(done.status).toBe('completed');
    expect(new Set(pathsOf(documents)).size).toBe(3);
  });
});

describe('JS SDK v1 client: batch scrape', () => {
  it('batchScrapeUrls() polls to the end (through /v1/crawl/:id, as the SDK does)', async () => {
    const urls = [site.url('/about.html'), site.url('/docs/page-1.html')];
    const result = ok(
      await app.batchScrapeUrls(urls, { formats: ['markdown', 'links'] }, 1, crypto.randomUUID()),
    );
    expect(result.status).toBe('completed');
    expect(pathsOf(result.data)).toEqual(['/about.html', '/docs/page-1.html']);
  });

  it('asyncBatchScrapeUrls(), checkBatchScrapeStatus(), checkBatchScrapeErrors()', async () => {
    const started = ok(
      await app.asyncBatchScrapeUrls(
        [site.url('/about.html'), 'ftp://not-a-web-page.test/'],
        { formats: ['markdown'] },
        undefined,
        undefined,
        true,
      ),
    );
    const id = started.id ?? '';
    expect(started.invalidURLs).toEqual(['ftp://not-a-web-page.test/']);
    let status = ok(await app.checkBatchScrapeStatus(id));
    for (let polls = 0; status.status === 'scraping' && polls < 30; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      status = ok(await app.checkBatchScrapeStatus(id, true));
    }
    expect(status.status).toBe('completed');
    expect(pathsOf(status.data)).toEqual(['/about.html']);
    expect(await app.checkBatchScrapeErrors(id)).toEqual({ errors: [], robotsBlocked: [] });
  });

  it('batchScrapeUrlsAndWatch() streams the batch', async () => {
    const watcher = await app.batchScrapeUrlsAndWatch(
      [site.url('/about.html'), site.url('/docs/page-2.html')],
      {
        formats: ['markdown'],
      },
    );
    const documents: V1Document[] = [];
    watcher.addEventListener('document', (event) => {
      documents.push(event.detail as V1Document);
    });
    const done = await new Promise<{ status: string }>((resolve, reject) => {
      watcher.addEventListener('done', (event) => resolve(event.detail));
      watcher.addEventListener('error', (event) => reject(new Error(JSON.stringify(event.detail))));
    });
    expect(done.status).toBe('completed');
    expect(new Set(pathsOf(documents))).toEqual(new Set(['/about.html', '/docs/page-2.html']));
  });
});

describe('JS SDK v1 client: map and search', () => {
  it('mapUrl() answers plain URL strings, the input URL first', async () => {
    const map = ok(await app.mapUrl(site.url('/'), { search: 'about', limit: 20 }));
    expect(map.links?.[0]).toBe(site.url('/'));
    expect(map.links).toContain(site.url('/about.html'));
    expect(map.links?.every((link) => typeof link === 'string')).toBe(true);
  });

  it('search() answers the results as a list, scraped when asked', async () => {
    ok(await app.scrapeUrl(site.url('/docs/page-18.html'), { formats: ['markdown'] }));
    const found = await app.search('Doc 18', { limit: 3, scrapeOptions: { formats: ['markdown'] } });
    expect(found.success).toBe(true);
    expect(found.data[0]?.url).toBe(site.url('/docs/page-18.html'));
    expect(found.data[0]?.markdown).toContain('Content of Doc 18');
  });
});

describe('JS SDK v1 client: usage', () => {
  it('getCreditUsage() and getTokenUsage() answer the snake_case v1 bodies', async () => {
    expect(ok(await app.getCreditUsage())).toMatchObject({
      success: true,
      data: { remaining_credits: expect.any(Number) },
    });
    expect(ok(await app.getTokenUsage())).toMatchObject({
      success: true,
      data: { remaining_tokens: expect.any(Number) },
    });
  });
});

describe('JS SDK v1 client: deep research without a model', () => {
  it('fails at once with a message that says what to configure', async () => {
    const outcome = await app.asyncDeepResearch('bees', {}).catch((err: unknown) => err);
    const message = outcome instanceof Error ? outcome.message : JSON.stringify(outcome);
    expect(message).toMatch(/LLM_BASE_URL/);
  });
});
