import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site of a few very large pages, for status pagination by size: a crawl or batch of them
 * outgrows one status page (10 MB of documents) with three documents instead of a hundred.
 * `/` links to `/1.html` … `/<pages>.html`; each holds about `pageBytes` of paragraph text.
 */
export async function startLargePagesSite({ pages = 3, pageBytes = 3_600_000 } = {}) {
  const paragraph = `<p>${'Large page text. '.repeat(60)}</p>\n`;
  const body = paragraph.repeat(Math.ceil(pageBytes / paragraph.length));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const number = /^\/(\d+)\.html$/.exec(path)?.[1];
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (path === '/') {
      const links = Array.from({ length: pages }, (_, i) => `<a href="/${i + 1}.html">Page ${i + 1}</a>`);
      response.end(`<!doctype html><title>Large pages</title><body>${links.join(' ')}</body>`);
    } else if (number !== undefined && Number(number) >= 1 && Number(number) <= pages) {
      response.end(`<!doctype html><title>Large page ${number}</title><body>${body}</body>`);
    } else {
      response.statusCode = 404;
      response.end('<!doctype html><title>Not found</title>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    pageUrls: () => Array.from({ length: pages }, (_, i) => `http://127.0.0.1:${port}/${i + 1}.html`),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
