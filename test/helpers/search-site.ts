import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const page = (title: string, description: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="${description}"></head>` +
  `<body><main><h1>${title}</h1>${body
    .split('\n')
    .map((line) => `<p>${line}</p>`)
    .join('')}</main></body></html>`;

/** Pages of the beekeeping site, by host and path; search tests scrape them and then look for them. */
const PAGES: Record<string, Record<string, string>> = {
  'bees.localhost': {
    '/queen.html': page(
      'The queen bee',
      'How a colony raises its queen',
      'The queen bee lays every egg in the colony.\nRoyal jelly turns a young larva into a queen.',
    ),
    '/honey.html': page(
      'Honey harvest',
      'When and how to take honey from the hive',
      'Harvest honey in late summer when the frames are capped.\nBees make honey from nectar.',
    ),
    '/wasps.html': page(
      'Wasp nests',
      'Wasps are not bees',
      'Wasps build paper nests.\nUnlike bees they make no honey, and their queen starts alone.',
    ),
    '/secret.html': page('Secret swarm', 'Private notes', 'Zanzibar swarm notes that must not be kept.'),
    '/propolis.html': page('Propolis notes', 'Bee glue', 'Propolis seals every gap of the hive.'),
  },
  'docs.bees.localhost': {
    '/guide/hive.html': page(
      'Hive guide',
      'Building a hive box',
      'Build a hive box with ten frames.\nA strong hive needs a laying queen.',
    ),
  },
};

/**
 * A small beekeeping site on loopback under `bees.localhost` and `docs.bees.localhost` (both
 * resolve to loopback in Chromium and in the server's egress), for search tests: every page has
 * distinct words, a title and a description. Pass `engine` to also serve saved search result pages
 * (test/fixtures/serp/<engine>/<source>.html) at the engine's paths, as SEARCH_ENGINE_URL expects.
 */
export async function startSearchSite() {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://search-site');
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    hits.push(`${host}${url.pathname}${url.search}`);
    const html = PAGES[host]?.[url.pathname];
    if (html === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Not found</title><p>No such page.</p>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string, host = 'bees.localhost') => `http://${host}:${port}${path}`,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Which saved page an engine's result page URL asks for. */
function sourceOf(url: URL): 'web' | 'news' | 'images' {
  const params = url.searchParams;
  if (params.get('tbm') === 'nws' || params.get('iar') === 'news' || url.pathname.startsWith('/news'))
    return 'news';
  if (params.get('tbm') === 'isch' || params.get('iax') === 'images' || url.pathname.startsWith('/images')) {
    return 'images';
  }
  return 'web';
}

/**
 * A stand-in for a search engine: answers any of the engine's result page URLs with the saved page
 * for that source, and records the queries it was sent. `hang` makes it never answer.
 */
export async function startSerpEngine(engine: 'duckduckgo' | 'bing' | 'google', { hang = false } = {}) {
  const queries: URL[] = [];
  const userAgents: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://engine');
    userAgents.push(request.headers['user-agent'] ?? '');
    if (url.pathname.endsWith('.ico') || url.pathname.startsWith('/dist/')) {
      response.writeHead(404);
      response.end();
      return;
    }
    queries.push(url);
    if (hang) return;
    readFile(new URL(`../fixtures/serp/${engine}/${sourceOf(url)}.html`, import.meta.url), 'utf8').then(
      (html) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(html);
      },
      () => {
        response.writeHead(500);
        response.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queries,
    /** Who asked: result pages are opened by browsers, never by the server's own HTTP client. */
    userAgents,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
