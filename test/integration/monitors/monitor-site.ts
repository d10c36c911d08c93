import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small site whose pages a test changes while a monitor watches it: plain HTML (the HTTP fast
 * path serves it without a browser), a page per path, 404 for the rest. Counts the requests each
 * path received, so a test can tell how often a check fetched it.
 */
export async function startMonitorSite(
  initial: Record<string, { title: string; body: string; links?: string[] }>,
) {
  const pages = new Map(Object.entries(initial));
  const hits = new Map<string, number>();
  const requests: Array<{ path: string; userAgent: string }> = [];
  /** Paths whose answers wait until the test lets them go. */
  const held = new Map<string, Promise<void>>();
  const render = (page: { title: string; body: string; links?: string[] }) =>
    `<!doctype html><html><head><title>${page.title}</title></head><body><main><h1>${page.title}</h1><p>${page.body}</p>` +
    (page.links ?? []).map((link) => `<p><a href="${link}">${link}</a></p>`).join('') +
    '</main></body></html>';
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    requests.push({ path, userAgent: request.headers['user-agent'] ?? '' });
    await held.get(path);
    const page = pages.get(path);
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end(
        '<!doctype html><html><head><title>Not found</title></head><body><p>Not found</p></body></html>',
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(render(page));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path: string) => `${origin}${path}`,
    set(path: string, page: { title: string; body: string; links?: string[] } | undefined) {
      if (page === undefined) pages.delete(path);
      else pages.set(path, page);
    },
    hits: (path: string) => hits.get(path) ?? 0,
    /** Every request, in order, with its user agent. */
    requests,
    /** Holds the answers of `path` until the returned function is called. */
    hold(path: string): () => void {
      let release = () => {};
      held.set(path, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        held.delete(path);
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type MonitorSite = Awaited<ReturnType<typeof startMonitorSite>>;
