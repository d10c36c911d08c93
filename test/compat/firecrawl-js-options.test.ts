import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl, { SdkError, type Document } from 'firecrawl';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * The `firecrawl` npm client's newer scrape and crawl options against a whole Tabhive: `minAge`,
 * `lockdown`, `redactPII`, `proxy: "enhanced"` and the crawl's `robotsUserAgent`, as a user passes
 * them, with what the SDK hands back asserted.
 */

const personal = (path: string) =>
  `<!doctype html><html><head><title>Grace Hopper</title></head><body><main><h1>Grace Hopper</h1>` +
  `<p>Grace worked in Arlington. Mail grace@example.com or call (555) 010-4477 about ${path}.</p>` +
  `<p>Her card 4111 1111 1111 1111 and token ghp_${'Zx9'.repeat(12)} are on file, for the archive of compilers.</p>` +
  `<p><a href="mailto:grace@example.com">write</a> <a href="/people/about">about</a></p></main></body></html>`;

const ROBOTS =
  'User-agent: FirecrawlAgent\nDisallow: /docs/internal/\n\nUser-agent: PartnerBot\nDisallow: /docs/beta/\n';
const docsPage = (title: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title} explains one part of the product in enough words to be a page.</p>` +
  links.map((href) => `<a href="${href}">${href}</a>`).join(' ') +
  `</main></body></html>`;

async function startSite() {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    requests.push(pathname);
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (pathname === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
    else if (pathname.startsWith('/people/')) html(personal(pathname));
    else if (pathname === '/docs/')
      html(docsPage('Docs', ['/docs/guide', '/docs/internal/ops', '/docs/beta/new']));
    else if (pathname.startsWith('/docs/')) html(docsPage(`Docs ${pathname}`));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    count: (pathname: string) => requests.filter((path) => path === pathname).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let site: Awaited<ReturnType<typeof startSite>>;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startSite();
  llm = await startFakeLlmServer();
  tabhive = await startTestTabhive({ browsers: 1, env: { LLM_BASE_URL: llm.baseUrl } });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await llm?.close();
  await site?.close();
});
beforeEach(() => llm.reset());

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );

describe('JS SDK v2: minAge and lockdown', () => {
  it('scrape() with lockdown gets the cached copy, and a miss is an SdkError 404', async () => {
    const url = site.url('/people/lockdown');
    const miss = await failureOf(firecrawl.scrape(url, { lockdown: true }));
    expect(miss).toBeInstanceOf(SdkError);
    expect(miss).toMatchObject({ status: 404, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
    expect(site.count('/people/lockdown')).toBe(0);

    const fresh = await firecrawl.scrape(url, { formats: ['markdown'] });
    const cached = await firecrawl.scrape(url, { formats: ['markdown', 'links'], lockdown: true });
    expect(cached.metadata?.cacheState).toBe('hit');
    expect(cached.markdown).toBe(fresh.markdown);
    expect(cached.links).toContain(site.url('/people/about'));
    expect(site.count('/people/lockdown')).toBe(1);
  });

  it('scrape() with minAge waits for the copy to be old enough, and never scrapes for it', async () => {
    const url = site.url('/people/min-age');
    await firecrawl.scrape(url);
    const young = await failureOf(firecrawl.scrape(url, { minAge: 60_000 }));
    expect(young).toMatchObject({ status: 404, code: 'SCRAPE_NO_CACHED_DATA' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const old = await firecrawl.scrape(url, { minAge: 1_000, maxAge: 3_600_000 });
    expect(old.metadata?.cacheState).toBe('hit');
    expect(site.count('/people/min-age')).toBe(1);
  });

  it('batchScrape() passes lockdown to every page', async () => {
    await firecrawl.scrape(site.url('/people/batch'));
    const job = await firecrawl.batchScrape([site.url('/people/batch'), site.url('/people/batch-new')], {
      options: { lockdown: true, formats: ['markdown'] },
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    expect(job.data.map((doc: Document) => doc.metadata?.sourceURL)).toEqual([site.url('/people/batch')]);
    expect(site.count('/people/batch-new')).toBe(0);
  });
});

describe('JS SDK v2: redactPII', () => {
  it('scrape() with redactPII: true redacts patterns and, through the LLM, names and places', async () => {
    llm.answer(JSON.stringify({ PERSON: ['Grace Hopper', 'Grace'], LOCATION: ['Arlington'] }));
    const document = await firecrawl.scrape(site.url('/people/redact'), {
      formats: ['markdown', 'links'],
      redactPII: true,
    });
    expect(document.markdown).toContain('<PERSON> worked in <LOCATION>. Mail <EMAIL> or call <PHONE>');
    expect(document.markdown).toContain('Her card <FINANCIAL> and token <SECRET> are on file');
    expect(document.links).toContain('mailto:<EMAIL>');
    expect(document.metadata?.title).toBe('<PERSON>');
    expect(JSON.stringify(document)).not.toContain('grace@example.com');
  });

  it('scrape() with the object form masks only the entities asked for, with no model call', async () => {
    const document = await firecrawl.scrape(site.url('/people/redact-mask'), {
      formats: ['markdown'],
      redactPII: { mode: 'fast', entities: ['EMAIL', 'PHONE'], replaceStyle: 'mask' },
    });
    expect(document.markdown).toContain(
      `Mail ${'*'.repeat('grace@example.com'.length)} or call ${'*'.repeat(14)}`,
    );
    expect(document.markdown).toContain('Grace Hopper');
    expect(document.markdown).toContain('4111 1111 1111 1111');
    expect(llm.requests).toHaveLength(0);
  });
});

describe('JS SDK v2: proxy "enhanced" and robotsUserAgent', () => {
  it('scrape() with proxy "enhanced" runs on the strongest browser connected (basic here)', async () => {
    const document = await firecrawl.scrape(site.url('/people/enhanced'), { proxy: 'enhanced', maxAge: 0 });
    expect(document.metadata?.proxyUsed).toBe('basic');
    expect(document.markdown).toContain('Grace Hopper');
  });

  it('startCrawl() with robotsUserAgent follows that agent’s robots.txt rules', async () => {
    const crawl = async (robotsUserAgent?: string) => {
      const { id } = await firecrawl.startCrawl(site.url('/docs/'), {
        sitemap: 'skip',
        ...(robotsUserAgent === undefined ? {} : { robotsUserAgent }),
        scrapeOptions: { formats: ['markdown'], maxAge: 0 },
      });
      let status = await firecrawl.getCrawlStatus(id);
      await waitUntil(
        async () => (status = await firecrawl.getCrawlStatus(id)).status !== 'scraping',
        60_000,
        'the crawl to finish',
      );
      const errors = await firecrawl.getCrawlErrors(id);
      return {
        pages: status.data.map((doc) => new URL(doc.metadata?.sourceURL ?? '').pathname).sort(),
        robotsBlocked: errors.robotsBlocked,
      };
    };
    expect(await crawl()).toEqual({
      pages: ['/docs/', '/docs/beta/new', '/docs/guide'],
      robotsBlocked: [site.url('/docs/internal/ops')],
    });
    expect(await crawl('PartnerBot')).toEqual({
      pages: ['/docs/', '/docs/guide', '/docs/internal/ops'],
      robotsBlocked: [site.url('/docs/beta/new')],
    });
    expect(site.count('/docs/internal/ops')).toBe(1);
  });
});
