import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { handleBehaviours } from './fixture-behaviours';

const SITE_DIR = fileURLToPath(new URL('../fixtures/site', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** The message js-rendered.html fetches after load; tests look for it in the Markdown. */
export const RENDERED_MESSAGE = 'Pollen counted by a script after the page loaded.';

/**
 * A local website for end-to-end tests: the static pages in test/fixtures/site plus a few
 * behaviours no static file has (an API, a redirect, a 404, a page that never finishes loading).
 * It records the paths it was asked for.
 */
export async function startFixtureSite() {
  const requests: string[] = [];
  /** Every request with the Host it was sent to and its headers (for headers and ad tests). */
  const hits: Array<{ host: string; path: string; query: string; headers: IncomingHttpHeaders }> = [];
  const hanging = new Set<ServerResponse>();
  let port = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fixture');
    requests.push(url.pathname);
    hits.push({
      host: request.headers.host ?? '',
      path: url.pathname,
      query: url.search,
      headers: request.headers,
    });
    if (await handleBehaviours(url, response, port)) return;
    switch (url.pathname) {
      case '/api/message.json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: RENDERED_MESSAGE }));
        return;
      case '/data.json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"hive":"honey","bees":3}');
        return;
      case '/moved':
        response.writeHead(302, { location: '/docs/getting-started.html' });
        response.end();
        return;
      case '/never-loads.html':
        // Sends the start of a page and then nothing: the load event never fires.
        response.writeHead(200, { 'content-type': 'text/html' });
        response.write('<!doctype html><title>Waiting</title><p>Still coming');
        hanging.add(response);
        return;
    }
    const file = path.join(SITE_DIR, url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname);
    if (!file.startsWith(SITE_DIR)) {
      response.writeHead(400).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      response.end(await readFile(path.join(SITE_DIR, 'not-found.html')));
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (pathname: string) => `${origin}${pathname}`,
    requests,
    hits,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
