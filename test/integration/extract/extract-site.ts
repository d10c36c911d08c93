import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Pages under `/many/` (more than one wildcard may read). */
export const MANY_PAGES = 30;

const productPage = (name: string, price: string, brand: string, extra = '') => `<!doctype html>
<html><head><title>${name}</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name,
  description: `The ${name}, made by ${brand}.`,
  brand: { '@type': 'Brand', name: brand },
  offers: { '@type': 'Offer', price, priceCurrency: 'EUR' },
})}</script></head>
<body><main><h1>${name}</h1><p>The ${name} costs ${price} EUR.</p>${extra}</main></body></html>`;

const plainPage = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * A small shop for extract tests, on 127.0.0.1: product pages that publish JSON-LD
 * (`/products/lamp.html`, `/products/chair.html`), `/many/` with MANY_PAGES product pages listed
 * in `/sitemap.xml`, a 404 page, and `/slow.html`, which answers only when `release()` is called
 * (or the site closes). Every request path is recorded in `hits`.
 */
export async function startExtractSite() {
  const hits: string[] = [];
  const held: ServerResponse[] = [];
  let base = '';

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.push(path);
    const html = (status: number, body: string) =>
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const many = /^\/many\/item-(\d+)\.html$/.exec(path);
    if (path === '/robots.txt') return response.writeHead(404).end();
    if (path === '/sitemap.xml') {
      const urls = [
        '/',
        '/products/lamp.html',
        '/products/chair.html',
        '/many/',
        ...Array.from({ length: MANY_PAGES }, (_, i) => `/many/item-${i + 1}.html`),
      ];
      response.writeHead(200, { 'content-type': 'application/xml' });
      return response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
          .map((url) => `<url><loc>${base}${url}</loc></url>`)
          .join('')}</urlset>`,
      );
    }
    if (path === '/') return html(200, plainPage('Lumen shop', '<a href="/products/lamp.html">Lamp</a>'));
    if (path === '/products/lamp.html') {
      return html(200, productPage('Desk Lamp', '39.90', 'Lumen', '<p>Colour: black</p>'));
    }
    if (path === '/products/chair.html') return html(200, productPage('Office Chair', '129.00', 'Sitwell'));
    if (path === '/many/') return html(200, plainPage('Many items', '<p>All our items.</p>'));
    if (many !== null) return html(200, productPage(`Item ${many[1]}`, `${many[1]}.00`, 'Lumen'));
    if (path === '/slow.html') {
      held.push(response);
      return;
    }
    return html(404, plainPage('Not found', '<p>No such page.</p>'));
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const release = () => {
    for (const response of held.splice(0)) response.writeHead(200).end(plainPage('Slow', '<p>At last.</p>'));
  };
  return {
    url: (path: string) => `${base}${path}`,
    hits,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A webhook receiver on loopback that keeps every body it is sent. */
export async function startWebhookReceiver() {
  const bodies: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      } catch {
        // Not JSON: nothing a test waits for.
      }
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
