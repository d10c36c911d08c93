import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request to a page site, with what its route answers through. */
export interface PageSiteVisit {
  url: URL;
  request: IncomingMessage;
  response: ServerResponse;
  /** Answers with an HTML page titled as the site is, `body` its body. */
  page(body: string, headers?: Record<string, string>): void;
}

/**
 * A site of a test's own on `host`, whose every page has the title `title`: `route` answers each
 * request, with `page` or, for anything else (a redirect, a script), through `response`.
 */
export async function startPageSite(
  { host, title }: { host: string; title: string },
  route: (visit: PageSiteVisit) => void,
) {
  const server = createServer((request, response) => {
    route({
      url: new URL(request.url ?? '/', 'http://site'),
      request,
      response,
      page: (body, headers = {}) =>
        response
          .writeHead(200, { 'content-type': 'text/html', ...headers })
          .end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: (pathname: string) => `http://${host}:${(server.address() as AddressInfo).port}${pathname}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
