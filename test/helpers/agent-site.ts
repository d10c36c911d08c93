import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const page = (title: string, body: string, description = `${title} at the Hive Shop`) =>
  `<!doctype html><html><head><title>${title}</title><meta name="description" content="${description}"></head>` +
  `<body><main>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  '/shop/': page(
    'Hive Shop',
    '<h1>Hive Shop</h1><p>Everything for bees.</p><ul><li><a href="/shop/widget.html">Honey Widget</a></li>' +
      '<li><a href="/shop/reveal.html">Secret offer</a></li></ul>',
  ),
  '/shop/widget.html': page(
    'Honey Widget',
    '<h1>Honey Widget</h1><p>The Honey Widget stirs honey without spilling a drop.</p><p>Price: $12.50</p>',
    'A widget that stirs honey',
  ),
  // The code is written into the page only when the button is clicked: `interact` must click it.
  '/shop/reveal.html': page(
    'Secret offer',
    '<h1>Secret offer</h1><p>Click to see the code.</p><button id="show" type="button">Show code</button>' +
      '<div id="out"></div><script>document.getElementById("show").addEventListener("click", function () {' +
      ' document.getElementById("out").innerHTML = "<p>Discount code: BEE-42</p>"; });</script>',
  ),
  '/outside.html': page('Outside', '<h1>Outside</h1><p>This page is not in the shop.</p>'),
};

/**
 * The agent tests' site: a small shop (a listing, a product page with a price, a page whose
 * discount code appears only after a click) and a page outside it. It counts requests per path,
 * so tests can tell a refused page was never fetched.
 */
export async function startAgentSite() {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const html = PAGES[path];
    if (html === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', '<p>Not found</p>'));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: (path: string) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
