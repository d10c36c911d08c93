import Firecrawl from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CRAWL_SITE_DOCS, startCrawlSite } from '../helpers/crawl-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

beforeAll(async () => {
  // The /slow/ pages hold each fetch long enough for a sampler to see how many run at once.
  site = await startCrawlSite({ slowMs: 150 });
  tabhive = await startTestTabhive({ browsers: 2 });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

const DOCS = Array.from({ length: CRAWL_SITE_DOCS }, (_, i) => `/docs/page-${i + 1}.html`);

/** Where a crawled page came from, relative to site.localhost; other hosts keep their host. */
const where = (sourceURL: string) => {
  const url = new URL(sourceURL);
  const path = `${url.pathname}${url.search}`;
  return url.hostname === 'site.localhost' ? path : `${url.hostname}${path}`;
};

/** Starts a crawl over HTTP, waits for it to end, and returns the pages (every status page followed). */
async function crawl(version: 'v1' | 'v2', body: Record<string, unknown>) {
  const started = await tabhive.post(`/${version}/crawl`, body);
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  const id = started.json.id as string;
  await waitUntil(
    async () => (await tabhive.get(`/${version}/crawl/${id}`)).json.status !== 'scraping',
    60_000,
    'the crawl to end',
  );
  const pages: string[] = [];
  let next: string | undefined = `/${version}/crawl/${id}`;
  let status: { status: string; total: number; completed: number; creditsUsed: number } | undefined;
  while (next !== undefined) {
    const { json } = await tabhive.get(next.replace(tabhive.url, ''));
    status ??= json;
    pages.push(...json.data.map((doc: { metadata: { sourceURL: string } }) => where(doc.metadata.sourceURL)));
    expect(json).not.toHaveProperty('next', null);
    next = json.next;
  }
  return { id, pages: pages.sort(), status: status! };
}

describe('crawl', () => {
  it('crawls the whole site with the SDK: links, the sitemap, robots.txt, one page per URL', async () => {
    const job = await firecrawl.crawl(site.url('/'), { limit: 100, pollInterval: 1 });
    expect(job.status).toBe('completed');
    const pages = job.data.map((doc) => where(doc.metadata!.sourceURL!)).sort();
    expect(pages).toEqual(
      ['/', '/about.html', '/about.html?ref=home', '/docs/', '/from-sitemap.html', ...DOCS].sort(),
    );
    expect(job.total).toBe(pages.length);
    expect(job.completed).toBe(pages.length);
    expect(job.creditsUsed).toBe(pages.length);
    expect(job.data.every((doc) => doc.metadata?.creditsUsed === 1 && doc.markdown !== undefined)).toBe(true);

    const errors = await firecrawl.getCrawlErrors(job.id!);
    expect(errors.errors).toEqual([]);
    expect(errors.robotsBlocked).toEqual([site.url('/private/secret.html')]);
  });

  it('pages the status with skip/limit and an absolute next, which the SDK follows', async () => {
    const { id, pages } = await crawl('v2', { url: site.url('/'), limit: 100 });
    const first = await tabhive.get(`/v2/crawl/${id}?limit=20`);
    expect(first.json.data).toHaveLength(20);
    expect(first.json.next).toBe(`${tabhive.url}/v2/crawl/${id}?skip=20&limit=20`);
    const last = await tabhive.get(`/v2/crawl/${id}?skip=40&limit=20`);
    expect(last.json.data).toHaveLength(pages.length - 40);
    expect(last.json).not.toHaveProperty('next');
    const all = await firecrawl.getCrawlStatus(id);
    expect(all.data.map((doc) => where(doc.metadata!.sourceURL!)).sort()).toEqual(pages);
    expect(all.expiresAt).toMatch(/\.000Z$/);
  });

  it('applies the path rules: includePaths, excludePaths, regexOnFullURL, limit', async () => {
    // The start page does not match: its links are followed, the page itself is left out.
    const included = await crawl('v2', {
      url: site.url('/docs/'),
      includePaths: ['^/docs/page-1\\d\\.html$'],
      sitemap: 'skip',
    });
    expect(included.pages).toEqual(DOCS.filter((path) => /page-1\d\./.test(path)).sort());
    const excluded = await crawl('v2', { url: site.url('/'), excludePaths: ['^/docs/'], sitemap: 'skip' });
    expect(excluded.pages).toEqual(['/', '/about.html', '/about.html?ref=home']);
    const fullUrl = await crawl('v2', {
      url: site.url('/'),
      regexOnFullURL: true,
      includePaths: [`^http://site\\.localhost:${site.port}/about\\.html$`],
    });
    expect(fullUrl.pages).toEqual(['/about.html']);
    const limited = await crawl('v2', { url: site.url('/'), limit: 10 });
    expect(limited.pages).toHaveLength(10);
    expect(limited.status.completed).toBe(10);
    // A team with an allowance: a crawl's limit comes down to what is left, a batch that needs more is a 402.
    const used = (await tabhive.tabhive.stores.teams.get('default'))!.creditsUsed;
    await tabhive.tabhive.stores.teams.configure('default', { creditAllowance: used + 3 });
    try {
      const lowered = await crawl('v2', { url: site.url('/'), limit: 10 });
      expect(lowered.pages).toHaveLength(3);
      const refused = await tabhive.post('/v2/batch/scrape', { urls: [site.url('/'), site.url('/docs/')] });
      expect(refused.status).toBe(402);
      expect(refused.json.error).toMatch(/^Insufficient credits/);
    } finally {
      await tabhive.tabhive.stores.teams.configure('default', { creditAllowance: null });
    }
    // Nothing but the start page, and it does not match: the crawl still ends, empty.
    const nothing = await crawl('v2', { url: site.url('/about.html'), includePaths: ['^/nothing$'] });
    expect(nothing.pages).toEqual([]);
    expect(nothing.status).toMatchObject({ status: 'completed', total: 0, completed: 0 });
    const { json: startErrors } = await tabhive.get(`/v2/crawl/${nothing.id}/errors`);
    expect(startErrors.errors).toEqual([
      expect.objectContaining({ url: site.url('/about.html'), error: expect.stringContaining('filters') }),
    ]);
  });

  it('refuses patterns RE2 cannot run with a 400, and v1 start URLs deeper than maxDepth', async () => {
    const lookahead = await tabhive.post('/v2/crawl', { url: site.url('/'), includePaths: ['(?=docs)'] });
    expect(lookahead.status).toBe(400);
    expect(lookahead.json).toMatchObject({ success: false, error: expect.stringContaining('(?=docs)') });
    const deep = await tabhive.post('/v1/crawl', { url: site.url('/a/b/c/d/e'), maxDepth: 2 });
    expect(deep.status).toBe(400);
    expect(deep.json.details[0]).toMatchObject({
      message: 'URL depth exceeds the specified maxDepth',
      path: ['url'],
    });
  });

  it('follows depth, sitemap, query and domain options', async () => {
    const depth1 = await crawl('v2', { url: site.url('/'), maxDiscoveryDepth: 1, sitemap: 'skip' });
    expect(depth1.pages).toEqual(['/', '/about.html', '/about.html?ref=home', '/docs/']);
    const depth0 = await crawl('v2', { url: site.url('/'), maxDiscoveryDepth: 0 });
    expect(depth0.pages).toEqual(['/', '/docs/', '/from-sitemap.html']);
    const sitemapOnly = await crawl('v2', { url: site.url('/'), sitemap: 'only' });
    expect(sitemapOnly.pages).toEqual(['/', '/docs/', '/from-sitemap.html']);
    const noQuery = await crawl('v2', {
      url: site.url('/'),
      ignoreQueryParameters: true,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
    });
    expect(noQuery.pages).toEqual(['/', '/about.html', '/docs/']);
    // The home page links to `/docs/` and `/docs/index.html`: one page unless deduplicateSimilarURLs is off.
    const similar = await crawl('v2', {
      url: site.url('/'),
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
      includePaths: ['^/(docs/(index\\.html)?)?$'],
    });
    expect(similar.pages).toEqual(['/', '/docs/']);
    const distinct = await crawl('v2', {
      url: site.url('/'),
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
      deduplicateSimilarURLs: false,
      includePaths: ['^/(docs/(index\\.html)?)?$'],
    });
    expect(distinct.pages).toEqual(['/', '/docs/', '/docs/index.html']);

    const subdomains = await crawl('v2', { url: site.url('/'), allowSubdomains: true, maxDiscoveryDepth: 1 });
    expect(subdomains.pages).toContain('blog.site.localhost/');
    expect(subdomains.pages.filter((page) => page.startsWith('127.0.0.1'))).toEqual([]);
  });

  it('keeps to the start path unless crawlEntireDomain (v1: allowBackwardLinks), and honours robots.txt', async () => {
    const docsOnly = await crawl('v2', { url: site.url('/docs/'), sitemap: 'skip', limit: 3 });
    expect(docsOnly.pages.every((path) => path.startsWith('/docs/'))).toBe(true);
    const entire = await crawl('v2', {
      url: site.url('/docs/page-1.html'),
      crawlEntireDomain: true,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
    });
    expect(entire.pages).toEqual(['/', '/docs/', '/docs/page-1.html', '/docs/page-2.html']);
    const backward = await crawl('v1', {
      url: site.url('/docs/page-1.html'),
      allowBackwardLinks: true,
      maxDiscoveryDepth: 1,
      ignoreSitemap: true,
    });
    expect(backward.pages).toEqual(entire.pages);
    const robots = await crawl('v2', {
      url: site.url('/'),
      ignoreRobotsTxt: true,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
    });
    expect(robots.pages).toContain('/private/secret.html');
  });

  it('runs one page at a time with delay and at most maxConcurrency', async () => {
    const started = Date.now();
    const delayed = await crawl('v2', {
      url: site.url('/docs/page-1.html'),
      crawlEntireDomain: true,
      delay: 1,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
    });
    expect(delayed.pages).toHaveLength(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);

    const peak = { value: 0 };
    const sample = setInterval(() => {
      peak.value = Math.max(peak.value, tabhive.tabhive.jobRunner.inFlight());
    }, 20);
    const capped = await crawl('v2', {
      url: site.url('/slow/'),
      maxConcurrency: 2,
      limit: 6,
      sitemap: 'skip',
      scrapeOptions: { maxAge: 0 },
    });
    expect(capped.pages).toHaveLength(6);
    expect(peak.value).toBe(2);

    // The team's limit, less the quarter kept for its single scrapes, holds across its jobs.
    await tabhive.tabhive.stores.teams.configure('default', { maxConcurrency: 4 });
    peak.value = 0;
    const teamCapped = await crawl('v2', {
      url: site.url('/slow/'),
      limit: 8,
      sitemap: 'skip',
      scrapeOptions: { maxAge: 0 },
    });
    await tabhive.tabhive.stores.teams.configure('default', { maxConcurrency: 10 });
    clearInterval(sample);
    expect(teamCapped.pages).toHaveLength(8);
    expect(peak.value).toBe(3);
  });

  it('serves a single scrape during a crawl that holds every tab, lists the crawl, cancels it', async () => {
    // A header of its own sends every page to a browser (the HTTP fast path would hold no tab).
    const started = await firecrawl.startCrawl(site.url('/'), {
      limit: 100,
      scrapeOptions: { maxAge: 0, headers: { 'x-crawl-test': 'browser' } },
    });
    // 2 browsers × 4 tabs, all the crawl's: the scrape takes the first tab that frees, ahead of
    // the crawl's next page (task-scheduler.ts), and never waits for the crawl to end.
    const slots = tabhive.tabhive.jobBrowserSlots;
    await waitUntil(() => slots.inUse() === 8, 30_000, 'the crawl to fill every tab');
    const single = await tabhive.post('/v2/scrape', { url: site.url('/about.html?single'), maxAge: 0 });
    expect(single.status).toBe(200);
    expect(slots.inUse()).toBeLessThanOrEqual(8);

    const active = await firecrawl.getActiveCrawls();
    const listed = active.crawls.find((entry) => entry.id === started.id);
    expect(listed).toMatchObject({ url: site.url('/') });
    expect((await tabhive.get('/v2/crawl/ongoing')).json.crawls[0].created_at).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
    );
    expect(await firecrawl.cancelCrawl(started.id)).toBe(true);
    expect((await firecrawl.getCrawlStatus(started.id)).status).toBe('cancelled');
    expect((await firecrawl.getActiveCrawls()).crawls.map((entry) => entry.id)).not.toContain(started.id);
    const missing = await fetch(`${tabhive.url}/v2/crawl/${crypto.randomUUID()}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Job not found' });
  });

  it('streams a crawl through the SDK watcher and reuses an idempotency key only once', async () => {
    const started = await firecrawl.startCrawl(site.url('/docs/'), { limit: 5, sitemap: 'skip' });
    const watcher = firecrawl.watcher(started.id, { kind: 'crawl', pollInterval: 1 });
    const documents: string[] = [];
    watcher.on('document', (doc: { metadata?: { sourceURL?: string } }) =>
      documents.push(doc.metadata?.sourceURL ?? ''),
    );
    const done = new Promise<{ status: string; completed?: number; total?: number }>((resolve) =>
      watcher.on('done', resolve),
    );
    await watcher.start();
    // The final message carries the job's counts, which the watcher reports with `done`.
    expect(await done).toMatchObject({ status: 'completed', completed: 5, total: 5 });
    expect(new Set(documents).size).toBe(5);

    // The key as the subprotocol, echoed; Firecrawl's close codes for a bad key and an unknown job.
    const wsUrl = (id: string) => `${tabhive.url.replace(/^http/, 'ws')}/v1/crawl/${id}`;
    const closeOf = (url: string, protocol: string) =>
      new Promise<{ code: number; reason: string; protocol: string }>((resolve) => {
        const socket = new WebSocket(url, protocol);
        let accepted = '';
        socket.on('open', () => (accepted = socket.protocol));
        socket.on('error', () => undefined);
        socket.on('close', (code, reason) =>
          resolve({ code, reason: reason.toString(), protocol: accepted }),
        );
      });
    expect(await closeOf(wsUrl(started.id), tabhive.apiKey)).toEqual({
      code: 1000,
      reason: '{"type":"done"}',
      protocol: tabhive.apiKey,
    });
    expect((await closeOf(wsUrl(started.id), 'fc-00000000000000000000000000000000')).code).toBe(3000);
    expect((await closeOf(wsUrl(crypto.randomUUID()), tabhive.apiKey)).code).toBe(1008);

    const key = crypto.randomUUID();
    const post = () =>
      fetch(`${tabhive.url}/v1/crawl`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tabhive.apiKey}`,
          'content-type': 'application/json',
          'x-idempotency-key': key,
        },
        body: JSON.stringify({ url: site.url('/about.html'), limit: 1 }),
      });
    expect((await post()).status).toBe(200);
    const reused = await post();
    expect(reused.status).toBe(409);
    expect(await reused.json()).toEqual({ success: false, error: 'Idempotency key already used' });
  });
});

describe('batch scrape', () => {
  it('scrapes every URL with the SDK, duplicates included, and reports invalid ones', async () => {
    const urls = [site.url('/about.html'), site.url('/docs/page-1.html'), site.url('/about.html')];
    const job = await firecrawl.batchScrape(urls, {
      options: { formats: ['markdown', 'links'] },
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(3);
    expect(job.data.map((doc) => doc.metadata?.sourceURL).sort()).toEqual([...urls].sort());
    expect(job.data.every((doc) => Array.isArray(doc.links))).toBe(true);
    expect(job.creditsUsed).toBe(3);

    const started = await tabhive.post('/v2/batch/scrape', {
      urls: [site.url('/about.html'), 'ftp://nope.test/'],
    });
    expect(started.json).toMatchObject({ success: true, invalidURLs: ['ftp://nope.test/'] });
    expect(started.json.url).toBe(`${tabhive.url}/v2/batch/scrape/${started.json.id}`);
    const strictV1 = await tabhive.post('/v1/batch/scrape', { urls: ['ftp://nope.test/'] });
    expect(strictV1.status).toBe(400);
    const v1 = await tabhive.post('/v1/batch/scrape', { urls: [site.url('/about.html')], formats: ['html'] });
    expect(v1.json).not.toHaveProperty('invalidURLs');
    await waitUntil(
      async () => (await tabhive.get(`/v1/crawl/${v1.json.id}`)).json.status === 'completed',
      30_000,
      'the v1 batch',
    );
    const v1Status = await tabhive.get(`/v1/batch/scrape/${v1.json.id}`);
    expect(v1Status.json.data[0].html).toContain('/about.html');
    await waitUntil(
      async () => (await tabhive.get(`/v2/batch/scrape/${started.json.id}`)).json.status === 'completed',
      30_000,
      'the batch',
    );
    const appended = await tabhive.post('/v2/batch/scrape', {
      urls: [site.url('/docs/page-2.html')],
      appendToId: started.json.id,
    });
    expect(appended.json.id).toBe(started.json.id);
    await waitUntil(
      async () => (await tabhive.get(`/v2/batch/scrape/${started.json.id}`)).json.completed === 2,
      30_000,
      'the appended page',
    );
    const errors = await firecrawl.getBatchScrapeErrors(started.json.id);
    expect(errors).toEqual({ errors: [], robotsBlocked: [] });
  });

  it('cancels a batch', async () => {
    const started = await firecrawl.startBatchScrape(
      DOCS.map((path) => site.url(path)),
      {
        options: { maxAge: 0 },
        maxConcurrency: 1,
      },
    );
    expect(await firecrawl.cancelBatchScrape(started.id)).toBe(true);
    const status = await firecrawl.getBatchScrapeStatus(started.id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(DOCS.length);
  });
});
