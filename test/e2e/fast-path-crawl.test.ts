import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * Crawl pages served by the HTTP fast path hold no browser tab: with a single tab, a crawl of
 * static pages still fetches several at once, while a page that needs the browser gets it.
 */
const STATIC_PAGES = 8;
/** Each static page answers after this long, so that pages in flight overlap visibly. */
const DELAY_MS = 400;
const TEXT = 'Bees carry pollen from flower to flower across the meadow all summer long. '.repeat(6);

let inFlight = 0;
let peakInFlight = 0;
const site = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://site').pathname;
  const links = [...Array.from({ length: STATIC_PAGES }, (_, i) => `/page-${i}.html`), '/script-page.html']
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(' ');
  const html = (body: string) =>
    `<!doctype html><html><head><title>${path}</title></head><body>${body}<nav>${links}</nav></body></html>`;
  if (path === '/script-page.html') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      html(
        `<main id="app"></main><script>document.getElementById('app').textContent = 'Written by a script.';</script>`,
      ),
    );
    return;
  }
  if (path !== '/' && !/^\/page-\d+\.html$/.test(path)) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  inFlight += 1;
  peakInFlight = Math.max(peakInFlight, inFlight);
  setTimeout(() => {
    inFlight -= 1;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html(`<main><h1>${path}</h1><p>${TEXT}</p></main>`));
  }, DELAY_MS);
});
let origin = '';
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  tabhive = await startTestTabhive({ env: { TABS_PER_BROWSER: '1' } });
});
afterAll(async () => {
  await tabhive?.stop();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

describe('a crawl on the HTTP fast path', () => {
  it('fetches static pages several at a time with one browser tab, and gives script pages the browser', async () => {
    const { status, json } = await tabhive.post('/v2/crawl', {
      url: `${origin}/`,
      sitemap: 'skip',
      limit: 20,
      scrapeOptions: { formats: ['markdown'], maxAge: 0 },
    });
    expect(status).toBe(200);
    let crawl: { status: string; data: Array<{ markdown?: string; metadata: { url: string } }> } = {
      status: 'scraping',
      data: [],
    };
    await waitUntil(
      async () => {
        crawl = (await tabhive.get(`/v2/crawl/${json.id as string}`)).json;
        return crawl.status !== 'scraping';
      },
      60_000,
      'the crawl to end',
    );
    expect(crawl.status).toBe('completed');
    expect(crawl.data).toHaveLength(STATIC_PAGES + 2);
    const scripted = crawl.data.find((page) => page.metadata.url.endsWith('/script-page.html'));
    expect(scripted?.markdown).toContain('Written by a script.');
    // The one tab would have allowed one page at a time; the static pages do not wait for it.
    expect(peakInFlight).toBeGreaterThan(1);
  });
});
