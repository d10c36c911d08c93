import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One result as SearXNG's `format=json` gives it (the fields search reads, and some it ignores). */
export interface SearxngResultFixture {
  url: string;
  title: string;
  content?: string;
  engine?: string;
  category?: string;
  publishedDate?: string | null;
  img_src?: string;
  thumbnail_src?: string;
  resolution?: string;
}

/**
 * A local server speaking SearXNG's JSON API (`GET /search?q=&format=json&categories=&pageno=`):
 * it answers each category's results, `perPage` at a time, and records the queries it was sent.
 * `delayMs` makes it slow, `answer` replaces the handler (for broken instances).
 */
export async function startFakeSearxng({
  results,
  perPage = 10,
  delayMs = 0,
  answer,
}: {
  results: (query: URLSearchParams) => Partial<Record<'general' | 'news' | 'images', SearxngResultFixture[]>>;
  perPage?: number;
  delayMs?: number;
  answer?: (request: IncomingMessage, response: ServerResponse) => void;
}) {
  const queries: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://searxng');
    queries.push(url.searchParams);
    const reply = () => {
      if (answer !== undefined) return answer(request, response);
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
        response.writeHead(403, { 'content-type': 'text/html' });
        response.end('<h1>403 Forbidden</h1>');
        return;
      }
      const category = (url.searchParams.get('categories') ?? 'general') as 'general' | 'news' | 'images';
      const page = Number(url.searchParams.get('pageno') ?? '1');
      const all = results(url.searchParams)[category] ?? [];
      const slice = all.slice((page - 1) * perPage, page * perPage).map((result) => ({
        engine: 'duckduckgo',
        engines: ['duckduckgo'],
        parsed_url: ['https', new URL(result.url).host, new URL(result.url).pathname, '', '', ''],
        template: category === 'images' ? 'images.html' : 'default.html',
        positions: [1],
        score: 1,
        category,
        ...result,
      }));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          query: url.searchParams.get('q'),
          number_of_results: all.length,
          results: slice,
          answers: [],
          corrections: [],
          infoboxes: [],
          suggestions: [],
          unresponsive_engines: [],
        }),
      );
    };
    if (delayMs > 0) setTimeout(reply, delayMs);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queries,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
