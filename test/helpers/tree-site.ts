import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site of exactly `pages` crawlable pages: `/t/1.html` is the root and page n links to pages 2n
 * and 2n+1 (a binary tree, so a crawl reaches every page by depth log2(pages)). `/s/<anything>.html`
 * are pages outside the tree, for single scrapes. Every page answers after `delayMs`, so that work
 * is in flight while a test kills parts of the cluster.
 */
export async function startTreeSite({ pages, delayMs = 0 }: { pages: number; delayMs?: number }) {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const tree = /^\/t\/(\d+)\.html$/.exec(path);
    const single = /^\/s\/([\w-]+)\.html$/.exec(path);
    const n = tree === null ? 0 : Number(tree[1]);
    if ((tree === null || n < 1 || n > pages) && single === null) {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body><h1>Not found</h1></body></html>');
      return;
    }
    const links = [2 * n, 2 * n + 1].filter((child) => child >= 1 && child <= pages);
    const title = tree === null ? `Single ${single?.[1] ?? ''}` : `Tree page ${n}`;
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
          `<p>This page is part of the cluster test site and says who it is: ${title}.</p>` +
          links.map((child) => `<p><a href="/t/${child}.html">Page ${child}</a></p>`).join('') +
          `</main></body></html>`,
      );
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
