import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockPageFixtures } from './block-page-fixtures';

/** The text of the page behind the clickable challenge, once passed. */
export const CLEARED_PAGE_TEXT = 'Comb honey, 12 euros the frame: the page behind the check.';
const CLEARANCE_COOKIE = 'th_clearance=passed';

/**
 * A challenge that clears on a person's click, as Cloudflare's managed challenge does: served 403
 * with cf-mitigated: challenge and the interstitial's marks until the browser holds the clearance
 * cookie, which only a trusted click (a person's, or CDP Input standing for one) sets.
 */
const CLICKABLE_CHALLENGE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head>
<body><h1>shop.example</h1><p>Verify you are human by clicking the box.</p>
<button id="verify" style="position:fixed;left:40px;top:120px;width:240px;height:80px">I am human</button>
<script>window._cf_chl_opt={cType:'managed',cRay:'fixture'};
document.getElementById('verify').addEventListener('click', function (event) {
  if (!event.isTrusted) return;
  document.cookie = '${CLEARANCE_COOKIE}; path=/';
  location.reload();
});</script></body></html>`;

/**
 * A site serving every fixture of test/fixtures/block-pages/ under /block/<file> with the status
 * and headers its manifest gives, a start page linking to all of them and to two ordinary pages
 * (for crawls), and /challenge, a challenge a click in the tab clears. It counts the requests per path.
 */
export async function startBlockPagesSite() {
  const fixtures = blockPageFixtures();
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const html = (status: number, body: string, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
    if (url.pathname === '/') {
      const links = [
        ...fixtures.map((fixture) => `/block/${fixture.file}`),
        '/ok/one.html',
        '/ok/two.html',
      ].map((href) => `<li><a href="${href}">${href}</a></li>`);
      return html(200, `<!doctype html><title>Hive shop</title><h1>Hive shop</h1><ul>${links.join('')}</ul>`);
    }
    if (url.pathname.startsWith('/ok/'))
      return html(
        200,
        `<!doctype html><title>Ordinary page</title><h1>Ordinary page ${url.pathname}</h1><p>Wax and honey.</p>`,
      );
    if (url.pathname === '/challenge') {
      if ((request.headers.cookie ?? '').includes(CLEARANCE_COOKIE))
        return html(
          200,
          `<!doctype html><title>Comb honey</title><h1>Comb honey</h1><p>${CLEARED_PAGE_TEXT}</p>`,
        );
      return html(403, CLICKABLE_CHALLENGE, { server: 'cloudflare', 'cf-mitigated': 'challenge' });
    }
    const fixture = fixtures.find((each) => url.pathname === `/block/${each.file}`);
    if (fixture !== undefined) return html(fixture.status, fixture.html, fixture.headers);
    return html(404, '<!doctype html><title>Not found</title><p>No such page.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    fixtures,
    /** The page's URL on `host` (a *.localhost name reaches the same loopback server in Chromium). */
    url: (pathname: string, host = '127.0.0.1') => `http://${host}:${port}${pathname}`,
    hits: (pathname: string) => hits.get(pathname) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
