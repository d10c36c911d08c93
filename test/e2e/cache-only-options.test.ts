import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

const page = (title: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title}: a page of the shop, with enough words to be an article of its own.</p>` +
  links.map((href) => `<p><a href="${href}">${href}</a></p>`).join('') +
  `</main></body></html>`;

/**
 * A shop whose start page links to three pages. It records every request it gets, robots.txt and
 * sitemaps included, so that a test can show a cache-only request sent it nothing at all.
 */
async function startShop() {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    requests.push(pathname);
    if (pathname === '/shop/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page('Shop', ['/shop/a', '/shop/b', '/shop/c']));
    } else if (pathname.startsWith('/shop/') || pathname.startsWith('/single/')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page(`Page ${pathname}`));
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    /** Requests so far, the browser's own favicon fetches aside (they come when the browser likes). */
    count: (pathname?: string) =>
      requests.filter((path) => path !== '/favicon.ico' && (pathname === undefined || path === pathname))
        .length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let shop: Awaited<ReturnType<typeof startShop>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
beforeAll(async () => {
  shop = await startShop();
  // Every page through the browser: the HTTP fast path would take these plain pages without one.
  tabhive = await startTestTabhive({ browsers: 1, env: { HTTP_FAST_PATH: 'false' } });
});
afterAll(async () => {
  await tabhive?.stop();
  await shop?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function finished(kind: 'crawl' | 'batch/scrape', id: string): Promise<any> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  let status: any;
  await waitUntil(
    async () => {
      status = (await tabhive.get(`/v2/${kind}/${id}`)).json;
      return status.status !== 'scraping';
    },
    60_000,
    `the ${kind} job to finish`,
  );
  return status;
}

const pathsOf = (documents: Array<{ metadata: { sourceURL: string } }>) =>
  documents.map((document) => new URL(document.metadata.sourceURL).pathname).sort();

describe('lockdown and minAge with real browsers', () => {
  it('answer a page never cached with a 404, and the site receives no request', async () => {
    const lockdown = await tabhive.post('/v2/scrape', { url: shop.url('/single/never'), lockdown: true });
    expect(lockdown.status).toBe(404);
    expect(lockdown.json).toMatchObject({ success: false, code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
    const minAge = await tabhive.post('/v2/scrape', { url: shop.url('/single/never'), minAge: 0 });
    expect(minAge.status).toBe(404);
    expect(minAge.json).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
    expect(shop.count('/single/never')).toBe(0);
  });

  it('serve the capture a browser took, in any formats, without asking the site again', async () => {
    const url = shop.url('/single/one');
    const first = await tabhive.post('/v2/scrape', { url });
    expect([first.status, first.json.data.metadata.cacheState]).toEqual([200, 'miss']);
    const before = shop.count();

    const lockdown = await tabhive.post('/v2/scrape', {
      url,
      lockdown: true,
      formats: ['markdown', 'html', 'links'],
    });
    expect([lockdown.status, lockdown.json.data.metadata.cacheState]).toEqual([200, 'hit']);
    expect(lockdown.json.data.markdown).toBe(first.json.data.markdown);
    expect(lockdown.json.data.html).toContain('Page /single/one');

    const tooYoung = await tabhive.post('/v2/scrape', { url, minAge: 60_000 });
    expect([tooYoung.status, tooYoung.json.code]).toEqual([404, 'SCRAPE_NO_CACHED_DATA']);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const oldEnough = await tabhive.post('/v2/scrape', { url, minAge: 1_000 });
    expect([oldEnough.status, oldEnough.json.data.metadata.cacheState]).toEqual([200, 'hit']);
    expect(oldEnough.json.data.markdown).toBe(first.json.data.markdown);
    expect(shop.count()).toBe(before);
  });

  it('crawl with lockdown through cached pages only: no robots.txt, no sitemap, no page is fetched', async () => {
    for (const path of ['/shop/', '/shop/a', '/shop/b']) {
      expect((await tabhive.post('/v2/scrape', { url: shop.url(path) })).status).toBe(200);
    }
    const before = shop.count();
    const started = await tabhive.post('/v2/crawl', {
      url: shop.url('/shop/'),
      scrapeOptions: { lockdown: true },
    });
    expect(started.status).toBe(200);
    const status = await finished('crawl', started.json.id);
    expect(status.status).toBe('completed');
    expect(pathsOf(status.data)).toEqual(['/shop/', '/shop/a', '/shop/b']);
    const failures = (await tabhive.get(`/v2/crawl/${started.json.id}/errors`)).json;
    expect(failures.errors).toEqual([
      expect.objectContaining({ url: shop.url('/shop/c'), code: 'SCRAPE_LOCKDOWN_CACHE_MISS' }),
    ]);
    expect(shop.count()).toBe(before);
    expect([shop.count('/robots.txt'), shop.count('/shop/c')]).toEqual([0, 0]);
  });

  it('batch scrape with lockdown: cached pages come back, the others fail unvisited', async () => {
    await tabhive.post('/v2/scrape', { url: shop.url('/single/batch') });
    const before = shop.count();
    const started = await tabhive.post('/v2/batch/scrape', {
      urls: [shop.url('/single/batch'), shop.url('/single/not-cached')],
      lockdown: true,
    });
    const status = await finished('batch/scrape', started.json.id);
    expect(status.status).toBe('completed');
    expect(pathsOf(status.data)).toEqual(['/single/batch']);
    expect(status.data[0].metadata.cacheState).toBe('hit');
    const failures = (await tabhive.get(`/v2/batch/scrape/${started.json.id}/errors`)).json;
    expect(failures.errors).toEqual([
      expect.objectContaining({ url: shop.url('/single/not-cached'), code: 'SCRAPE_LOCKDOWN_CACHE_MISS' }),
    ]);
    expect(shop.count()).toBe(before);
  });

  it('runs proxy "enhanced" on the strongest browser there is: here a basic one', async () => {
    const enhanced = await tabhive.post('/v2/scrape', {
      url: shop.url('/single/enhanced'),
      proxy: 'enhanced',
    });
    expect(enhanced.status).toBe(200);
    expect(enhanced.json.data.metadata.proxyUsed).toBe('basic');
    expect(enhanced.json.data.markdown).toContain('Page /single/enhanced');
    expect(shop.count('/single/enhanced')).toBe(1);
  });
});
