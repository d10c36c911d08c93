import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const CORPUS = fileURLToPath(new URL('../fixtures/prompt-injection', import.meta.url));

/** A page publishing people, an organization and a product as schema.org JSON-LD, for knowledgeGraph. */
export const GRAPH_PAGE = `<!doctype html><html><head><title>Valley Honey Coop</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@graph': [
    {
      '@type': 'Person',
      '@id': '#mia',
      name: 'Mia Lind',
      jobTitle: 'Beekeeper',
      worksFor: { '@id': '#coop' },
    },
    { '@type': 'Organization', '@id': '#coop', name: 'Valley Honey Coop', founder: { '@id': '#mia' } },
    { '@type': 'Product', name: 'Heather honey' },
  ],
})}</script></head><body><main><h1>Valley Honey Coop</h1><p>Founded by Mia Lind.</p></main></body></html>`;

/**
 * Serves the prompt-injection corpus (test/fixtures/prompt-injection) on loopback:
 * `/injection/<file>` and `/clean/<file>` as written, and `/graph` (GRAPH_PAGE).
 */
export async function startPromptInjectionSite() {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const send = (body: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };
    if (path === '/graph') return send(GRAPH_PAGE);
    const match = /^\/(injection|clean)\/([\w-]+\.html)$/.exec(path);
    if (match === null) return void response.writeHead(404).end();
    readFile(`${CORPUS}/${match[1]}/${match[2]}`, 'utf8').then(send, () => response.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path: string) => `${origin}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
