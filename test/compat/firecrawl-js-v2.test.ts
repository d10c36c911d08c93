import Firecrawl, { SdkError, type Document } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { startLargePagesSite } from '../helpers/large-pages-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * The official `firecrawl` npm package's v2 client (the package's default export), calling every
 * method whose route Tabhive serves, with the options a user would pass. What is asserted is what
 * the SDK hands back to its caller, so a wire change that the SDK cannot read fails here.
 */

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let largePages: Awaited<ReturnType<typeof startLargePagesSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startCrawlSite();
  largePages = await startLargePagesSite();
  tabhive = await startTestTabhive({ browsers: 2 });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await largePages?.close();
});

const sourcesOf = (docs: Document[]) =>
  docs.map((doc) => new URL(doc.metadata?.sourceURL ?? '').pathname).sort();

describe('JS SDK v2 client: scrape', () => {
  it('scrape() with every scrape option the SDK sends for a browser scrape', async () => {
    const document = await firecrawl.scrape(site.url('/about.html'), {
      formats: [
        'markdown',
        'html',
        'rawHtml',
        'links',
        'images',
        { type: 'screenshot', fullPage: true, quality: 60, viewport: { width: 800, height: 600 } },
      ],
      headers: { 'x-compat-suite': 'js-v2' },
      includeTags: ['main', 'nav'],
      excludeTags: ['script'],
      onlyMainContent: false,
      timeout: 30_000,
      waitFor: 50,
      mobile: false,
      parsers: ['pdf'],
      actions: [
        { type: 'wait', milliseconds: 50 },
        { type: 'scroll', direction: 'down' },
        { type: 'executeJavascript', script: 'document.title' },
      ],
      location: { country: 'DE', languages: ['de-DE'] },
      skipTlsVerification: true,
      removeBase64Images: true,
      fastMode: false,
      blockAds: true,
      proxy: 'basic',
      maxAge: 0,
      storeInCache: false,
      integration: 'langchain',
    });
    expect(document.markdown).toContain('Content of /about.html');
    expect(document.html).toContain('<main>');
    expect(document.rawHtml).toContain('<title>/about.html</title>');
    expect(document.links).toContain(site.url('/'));
    expect(document.images).toEqual([]);
    expect(document.screenshot).toMatch(/^data:image\/jpeg;base64,/);
    // The SDK types `actions` loosely; Tabhive answers each script's value in javascriptReturns.
    const actions = document.actions as { javascriptReturns?: unknown[] } | undefined;
    expect(actions?.javascriptReturns?.[0]).toEqual({ type: 'string', value: '/about.html' });
    expect(document.metadata).toMatchObject({
      statusCode: 200,
      sourceURL: site.url('/about.html'),
      proxyUsed: 'basic',
    });
  });

  it('scrape() failures reach the caller as SdkError with the status and code', async () => {
    const failure = await firecrawl
      .scrape(site.url('/about.html'), { waitFor: 20_000, timeout: 30_000 })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });
});

describe('JS SDK v2 client: crawl', () => {
  it('crawl() waits for the crawl, with the crawler options the SDK sends', async () => {
    const job = await firecrawl.crawl(site.url('/'), {
      limit: 4,
      includePaths: ['^/(about\\.html|docs/)?$'],
      excludePaths: ['^/private/'],
      maxDiscoveryDepth: 2,
      sitemap: 'skip',
      ignoreQueryParameters: true,
      deduplicateSimilarURLs: true,
      crawlEntireDomain: false,
      allowExternalLinks: false,
      allowSubdomains: false,
      ignoreRobotsTxt: false,
      maxConcurrency: 2,
      regexOnFullURL: false,
      zeroDataRetention: false,
      scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: true },
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    expect(sourcesOf(job.data)).toEqual(['/', '/about.html', '/docs/']);
    expect(job.data.every((doc) => typeof doc.markdown === 'string' && Array.isArray(doc.links))).toBe(true);
    expect(job.completed).toBe(3);
    expect(job.creditsUsed).toBe(3);
  });

  it('startCrawl() and getCrawlStatus() follow `next` over several status pages, or stop where asked', async () => {
    // Three pages of 3.6 MB outgrow one 10 MB status page, as a hundred small ones would.
    const started = await firecrawl.startCrawl(largePages.url('/'), {
      limit: 4,
      scrapeOptions: { formats: ['rawHtml'] },
    });
    expect(started.url).toBe(`${tabhive.url}/v2/crawl/${started.id}`);
    await waitUntil(
      async () =>
        (await firecrawl.getCrawlStatus(started.id, { autoPaginate: false })).status === 'completed',
      45_000,
      'the crawl of large pages',
    );
    const all = await firecrawl.getCrawlStatus(started.id);
    expect(all.total).toBe(4);
    expect(sourcesOf(all.data)).toEqual(['/', '/1.html', '/2.html', '/3.html']);

    const firstPage = await firecrawl.getCrawlStatus(started.id, { autoPaginate: false });
    expect(firstPage.data.length).toBeLessThan(4);
    expect(firstPage.next).toBe(`${tabhive.url}/v2/crawl/${started.id}?skip=${firstPage.data.length}`);
    expect((await firecrawl.getCrawlStatus(started.id, { maxPages: 0 })).data).toHaveLength(
      firstPage.data.length,
    );
  });

  it('getCrawlErrors() lists robots-blocked URLs; an unknown id is an SdkError 404', async () => {
    const job = await firecrawl.crawl(site.url('/'), {
      limit: 20,
      sitemap: 'skip',
      maxDiscoveryDepth: 1,
      pollInterval: 1,
    });
    const errors = await firecrawl.getCrawlErrors(job.id);
    expect(errors.errors).toEqual([]);
    expect(errors.robotsBlocked).toContain(site.url('/private/secret.html'));
    const missing = await firecrawl.getCrawlErrors(crypto.randomUUID()).catch((err: unknown) => err);
    expect(missing).toMatchObject({ status: 404 });
  });

  it('getActiveCrawls() lists a running crawl and cancelCrawl() stops it', async () => {
    const started = await firecrawl.startCrawl(site.url('/docs/'), { limit: 40, delay: 1, sitemap: 'skip' });
    const active = await firecrawl.getActiveCrawls();
    expect(active.success).toBe(true);
    expect(active.crawls.find((crawl) => crawl.id === started.id)).toMatchObject({
      url: site.url('/docs/'),
      teamId: expect.any(String),
    });
    expect(await firecrawl.cancelCrawl(started.id)).toBe(true);
    expect((await firecrawl.getCrawlStatus(started.id)).status).toBe('cancelled');
    expect((await firecrawl.getActiveCrawls()).crawls.map((crawl) => crawl.id)).not.toContain(started.id);
  });
});

describe('JS SDK v2 client: batch scrape', () => {
  it('batchScrape() waits and pages through the results', async () => {
    const urls = largePages.pageUrls();
    const job = await firecrawl.batchScrape(urls, {
      options: { formats: ['rawHtml'], onlyMainContent: true },
      ignoreInvalidURLs: true,
      maxConcurrency: 3,
      zeroDataRetention: false,
      idempotencyKey: crypto.randomUUID(),
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    expect(sourcesOf(job.data)).toEqual(['/1.html', '/2.html', '/3.html']);
    const firstPage = await firecrawl.getBatchScrapeStatus(job.id, { autoPaginate: false });
    expect(firstPage.data.length).toBeLessThan(3);
    expect(firstPage.next).toBe(`${tabhive.url}/v2/batch/scrape/${job.id}?skip=${firstPage.data.length}`);
  });

  it('startBatchScrape(), getBatchScrapeStatus(), getBatchScrapeErrors(), cancelBatchScrape()', async () => {
    const started = await firecrawl.startBatchScrape(
      [
        site.url('/about.html'),
        'ftp://not-a-web-page.test/',
        ...Array.from({ length: 30 }, (_, i) => site.url(`/docs/page-${i + 1}.html`)),
      ],
      { options: { maxAge: 0 }, maxConcurrency: 1, ignoreInvalidURLs: true },
    );
    expect(started.invalidURLs).toEqual(['ftp://not-a-web-page.test/']);
    const status = await firecrawl.getBatchScrapeStatus(started.id);
    expect(['scraping', 'completed']).toContain(status.status);
    expect(status.total).toBe(31);
    expect(await firecrawl.getBatchScrapeErrors(started.id)).toEqual({ errors: [], robotsBlocked: [] });
    expect(await firecrawl.cancelBatchScrape(started.id)).toBe(true);
    expect((await firecrawl.getBatchScrapeStatus(started.id)).status).toBe('cancelled');
  });
});

describe('JS SDK v2 client: watcher', () => {
  for (const kind of ['crawl', 'batch'] as const) {
    it(`watcher() streams a ${kind} over the WebSocket to its end`, async () => {
      const started =
        kind === 'crawl'
          ? await firecrawl.startCrawl(site.url('/docs/'), { limit: 4, sitemap: 'skip' })
          : await firecrawl.startBatchScrape([site.url('/about.html'), site.url('/docs/page-9.html')]);
      const watcher = firecrawl.watcher(started.id, { kind, pollInterval: 1, timeout: 60 });
      const documents: Document[] = [];
      watcher.on('document', (doc: Document) => documents.push(doc));
      const done = new Promise<{ status: string; data: Document[]; id: string }>((resolve) =>
        watcher.on('done', resolve),
      );
      await watcher.start();
      const end = await done;
      watcher.close();
      expect(end).toMatchObject({ status: 'completed', id: started.id });
      expect(new Set(sourcesOf(documents)).size).toBe(kind === 'crawl' ? 4 : 2);
    });
  }
});

describe('JS SDK v2 client: map, search, crawl parameters', () => {
  it('map() lists sitemap and linked pages, ranked by search, within limit', async () => {
    const map = await firecrawl.map(site.url('/'), {
      search: 'about',
      limit: 50,
      sitemap: 'include',
      includeSubdomains: true,
    });
    const urls = map.links.map((link) => link.url);
    expect(urls[0]).toBe(site.url('/about.html'));
    expect(urls).toContain(site.url('/from-sitemap.html'));
    expect(urls).not.toContain(site.url('/private/secret.html'));
    expect((await firecrawl.map(site.url('/'), { limit: 2 })).links).toHaveLength(2);
  });

  it('search() finds a scraped page in the local index, and scrapes results when asked', async () => {
    await firecrawl.scrape(site.url('/docs/page-17.html'), { formats: ['markdown'] });
    const found = await firecrawl.search('Doc 17', { limit: 3, scrapeOptions: { formats: ['markdown'] } });
    const first = found.web?.[0] as (Document & { url?: string }) | undefined;
    expect(first?.metadata?.sourceURL ?? first?.url).toBe(site.url('/docs/page-17.html'));
    expect(first?.markdown).toContain('Content of Doc 17');
  });

  it('crawlParamsPreview() turns a prompt into crawler options', async () => {
    const preview = await firecrawl.crawlParamsPreview(
      site.url('/'),
      'only the docs, up to 5 pages, skip the sitemap',
    );
    expect(preview).toMatchObject({ limit: 5, sitemap: 'skip' });
  });
});

describe('JS SDK v2 client: usage', () => {
  it('getCreditUsage(), getTokenUsage() and getConcurrency() answer numbers', async () => {
    expect((await firecrawl.getCreditUsage()).remainingCredits).toEqual(expect.any(Number));
    expect((await firecrawl.getTokenUsage()).remainingTokens).toEqual(expect.any(Number));
    expect(await firecrawl.getConcurrency()).toMatchObject({
      concurrency: expect.any(Number),
      maxConcurrency: expect.any(Number),
    });
  });
});

describe('JS SDK v2 client: methods Tabhive does not serve', () => {
  it('a specialised search fails at once with an SdkError that names the missing feature', async () => {
    const failure = await firecrawl.developerSearch('tabhive').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({ status: 404, code: 'UNSUPPORTED_ENDPOINT' });
    expect((failure as SdkError).message).toContain('does not serve');
  });
});
