import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Pages in the generated site's main section (`/docs/page-N.html`). */
export const CRAWL_SITE_DOCS = 48;

/**
 * A generated site for crawl tests, served on loopback under three names: `site.localhost` (the
 * crawl's host), `blog.site.localhost` (a subdomain) and 127.0.0.1. Chromium and the server's
 * egress both resolve `*.localhost` to loopback.
 *
 * - `/` links to `/docs/`, `/about.html`, `/private/secret.html`, a query-string variant, the
 *   subdomain and an external host;
 * - `/docs/` links to every `/docs/page-N.html`; each page links to the next and to `/docs/`;
 * - `/private/` is disallowed by robots.txt; `/sitemap.xml` lists `/from-sitemap.html` (linked
 *   from nowhere) and the docs index;
 * - `/slow/` links to `/slow/1.html` … `/slow/<slowPages>.html`; every slow page answers after
 *   `slowMs`, to keep a crawl busy while a test interferes.
 */
export async function startCrawlSite({
  slowMs = 0,
  slowPages = 20,
}: { slowMs?: number; slowPages?: number } = {}) {
  const hits: string[] = [];
  let port = 0;
  const page = (title: string, links: string[]) =>
    `<!doctype html><html><head><title>${title}</title></head><body><nav>${links
      .map((href) => `<a href="${href}">${href}</a>`)
      .join(' ')}</nav><main><h1>${title}</h1><p>Content of ${title}.</p></main></body></html>`;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const host = (request.headers.host ?? '').split(':')[0] ?? '';
    hits.push(`${host}${url.pathname}${url.search}`);
    const html = (body: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };
    if (host.startsWith('blog.')) return html(page('Blog home', ['/post.html']));
    const path = url.pathname;
    if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      return response.end(`User-agent: *\nDisallow: /private/\n`);
    }
    if (path === '/sitemap.xml') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      return response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<url><loc>http://site.localhost:${port}/from-sitemap.html</loc></url>` +
          `<url><loc>http://site.localhost:${port}/docs/</loc></url></urlset>`,
      );
    }
    if (path === '/')
      return html(
        page('Home', [
          '/docs/',
          '/docs/index.html',
          '/about.html',
          '/about.html?ref=home',
          '/private/secret.html',
          `http://blog.site.localhost:${port}/`,
          'http://127.0.0.1:9/elsewhere.html',
          '/logo.png',
        ]),
      );
    if (path === '/docs/' || path === '/docs/index.html')
      return html(
        page(
          'Docs',
          Array.from({ length: CRAWL_SITE_DOCS }, (_, i) => `/docs/page-${i + 1}.html`),
        ),
      );
    const docs = /^\/docs\/page-(\d+)\.html$/.exec(path);
    if (docs !== null) {
      const n = Number(docs[1]);
      return html(page(`Doc ${n}`, ['/docs/', `/docs/page-${(n % CRAWL_SITE_DOCS) + 1}.html`, '/']));
    }
    if (path === '/slow/' || /^\/slow\/\d+\.html$/.test(path)) {
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      const links =
        path === '/slow/' ? Array.from({ length: slowPages }, (_, i) => `/slow/${i + 1}.html`) : [];
      return html(page(`Slow ${path}`, links));
    }
    if (path === '/about.html' || path === '/from-sitemap.html' || path === '/private/secret.html')
      return html(page(path, ['/']));
    response.writeHead(404, { 'content-type': 'text/html' });
    response.end(page('Not found', []));
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string, host = 'site.localhost') => `http://${host}:${port}${path}`,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
