import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The intranet's name, which only the donor's Chromium resolves (to INTRANET_ADDRESS). */
export const INTRANET_HOST = 'intranet.corp.test';
/** A single-label name for the same site, as intranets often have. */
export const INTRANET_SHORT_HOST = 'wiki';
/** A loopback address standing in for the intranet's private one. */
export const INTRANET_ADDRESS = '127.0.0.5';
export const HANDBOOK_TEXT = 'The staff handbook, visible only inside the company network.';

export interface Hit {
  host: string;
  path: string;
  userAgent: string;
}

const listen = (server: Server, host: string) =>
  new Promise<void>((resolve) => server.listen(0, host, resolve));
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * A company intranet on INTRANET_ADDRESS: a home page linking to `/a`, `/b` and `/private`, a
 * robots.txt that disallows `/private` and names the sitemap, which adds `/c`; `/leave` redirects
 * outside the intranet, to `outside` (another loopback server, standing in for anything else on
 * the person's network). Every request either site gets is recorded, with its user agent.
 */
export async function startIntranetSite() {
  const hits: Hit[] = [];
  const outsideHits: Hit[] = [];
  let port = 0;
  const record = (into: Hit[], request: IncomingMessage) =>
    into.push({
      host: request.headers.host ?? '',
      path: new URL(request.url ?? '/', 'http://site').pathname,
      userAgent: request.headers['user-agent'] ?? '',
    });
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
  const outside = createServer((request, response) => {
    record(outsideHits, request);
    response.writeHead(200, { 'content-type': 'text/html' }).end(page('Outside', '<p>Outside the fence</p>'));
  });
  const site = createServer((request, response) => {
    record(hits, request);
    const origin = `http://${request.headers.host ?? INTRANET_HOST}`;
    const html = (title: string, body: string) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(title, body));
    switch (new URL(request.url ?? '/', origin).pathname) {
      case '/':
        html(
          'Intranet',
          `<h1>Intranet</h1><p>${HANDBOOK_TEXT}</p><a href="/a">A</a> <a href="/b">B</a> <a href="/private">Private</a>`,
        );
        return;
      case '/a':
        html('Alpha', '<h1>Alpha</h1><p>Alpha team pages.</p>');
        return;
      case '/b':
        html('Bravo', '<h1>Bravo</h1><p>Bravo team pages.</p>');
        return;
      case '/c':
        html('Charlie', '<h1>Charlie</h1><p>Only the sitemap links here.</p>');
        return;
      case '/private':
        html('Private', '<h1>Private</h1>');
        return;
      case '/leave':
        response
          .writeHead(302, { location: `http://127.0.0.1:${(outside.address() as AddressInfo).port}/outside` })
          .end();
        return;
      case '/robots.txt':
        response
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`User-agent: *\nDisallow: /private\nSitemap: ${origin}/sitemap.xml\n`);
        return;
      case '/sitemap.xml':
        response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
              ['/', '/a', '/c'].map((path) => `<url><loc>${origin}${path}</loc></url>`).join('') +
              '</urlset>',
          );
        return;
      default:
        response.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', '<p>Not here</p>'));
    }
  });
  await listen(site, INTRANET_ADDRESS);
  await listen(outside, '127.0.0.1');
  ({ port } = site.address() as AddressInfo);
  return {
    hits,
    outsideHits,
    port,
    url: (path: string, host = INTRANET_HOST) => `http://${host}:${port}${path}`,
    /** The Chromium switch by which the donor's browser alone finds the intranet. */
    resolverRule: `--host-resolver-rules=MAP ${INTRANET_HOST} ${INTRANET_ADDRESS}, MAP ${INTRANET_SHORT_HOST} ${INTRANET_ADDRESS}`,
    async close() {
      await close(site);
      await close(outside);
    },
  };
}
