import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedPage, latePage } from './dynamic-pages';
import { MEDIA_IMAGES, mediaPage, noisyPng } from './media-pages';

/**
 * The benchmark's local website, generated in memory and the same on every run: an index that
 * links every section, static article pages (5–10 KB, text, a table, a list, links to their
 * neighbours) and pages whose content a script writes after `load` from a JSON request, as
 * single-page apps do. Every page is reachable from `/` through plain links, except the late and
 * feed pages of the completeness rows (dynamic-pages.ts), which the bench visits by address.
 */
export interface BenchSite {
  origin: string;
  staticPaths: string[];
  scriptPaths: string[];
  latePaths: string[];
  feedPaths: string[];
  /** Picture-heavy pages (media-pages.ts), reachable from `/media/` only. */
  mediaPaths: string[];
  close(): Promise<void>;
}

const WORDS =
  'hive bee honey comb wax queen worker drone pollen nectar flower meadow forage swarm colony frame brood smoker keeper season harvest spring summer autumn winter garden orchard clover lavender'.split(
    ' ',
  );

/** A small deterministic generator, so every run serves the same site. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next: () => number): string {
  const length = 8 + Math.floor(next() * 12);
  const words = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)] as string);
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraphs(next: () => number, count: number): string {
  return Array.from(
    { length: count },
    () => `<p>${Array.from({ length: 4 + Math.floor(next() * 4) }, () => sentence(next)).join(' ')}</p>`,
  ).join('\n');
}

const layout = (title: string, body: string, head = '') =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<meta name="description" content="${title}: a page of the Tabhive benchmark site.">
<link rel="icon" href="data:,">
${head}</head>
<body>
<header><nav><a href="/">Home</a> <a href="/static/">Articles</a> <a href="/app/">App pages</a></nav></header>
${body}
<footer><p>Benchmark site footer.</p></footer>
</body>
</html>
`;

function staticPage(index: number, total: number): string {
  const next = random(index + 1);
  const neighbours = [index + 1, index + 7, index + 31]
    .map((n) => n % total)
    .map((n) => `<li><a href="/static/page-${n}.html">Article ${n}</a></li>`)
    .join('');
  const rows = Array.from(
    { length: 5 },
    (_, row) =>
      `<tr><td>${WORDS[(index + row) % WORDS.length]}</td><td>${Math.floor(next() * 1000)}</td></tr>`,
  ).join('');
  return layout(
    `Article ${index}`,
    `<main><article>
<h1>Article ${index}</h1>
${paragraphs(next, 6)}
<h2>Figures</h2>
<table><thead><tr><th>Name</th><th>Count</th></tr></thead><tbody>${rows}</tbody></table>
${paragraphs(next, 4)}
<h2>Related</h2>
<ul>${neighbours}</ul>
</article></main>`,
  );
}

/** The shell of a page a script fills; its text arrives in a JSON request after load. */
function scriptPage(index: number): string {
  return layout(
    `App page ${index}`,
    `<main id="app"></main>
<script>
window.addEventListener('load', async () => {
  const data = await (await fetch('/api/app-${index}.json')).json();
  document.getElementById('app').innerHTML = data.html;
});
</script>`,
  );
}

function scriptData(index: number, total: number): string {
  const next = random(10_000 + index);
  const html = `<article><h1>App page ${index}</h1>${paragraphs(next, 8)}<p><a href="/app/page-${(index + 1) % total}.html">Next app page</a></p></article>`;
  return JSON.stringify({ html });
}

const listing = (title: string, paths: string[]) =>
  layout(
    title,
    `<main><h1>${title}</h1><ul>${paths.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></main>`,
  );

export async function startBenchSite({
  staticPages,
  scriptPages,
  latePages = 0,
  feedPages = 0,
  mediaPages = 0,
}: {
  staticPages: number;
  scriptPages: number;
  latePages?: number;
  feedPages?: number;
  mediaPages?: number;
}): Promise<BenchSite> {
  const staticPaths = Array.from({ length: staticPages }, (_, i) => `/static/page-${i}.html`);
  const scriptPaths = Array.from({ length: scriptPages }, (_, i) => `/app/page-${i}.html`);
  const latePaths = Array.from({ length: latePages }, (_, i) => `/late/page-${i}.html`);
  const feedPaths = Array.from({ length: feedPages }, (_, i) => `/feed/page-${i}.html`);
  const mediaPaths = Array.from({ length: mediaPages }, (_, i) => `/media/page-${i}.html`);
  const pages = new Map<string, { type: string; body: string | Buffer }>();
  const html = (body: string) => ({ type: 'text/html; charset=utf-8', body });
  pages.set(
    '/',
    html(
      layout(
        'Benchmark site',
        '<main><h1>Benchmark site</h1><p>Articles and app pages.</p><p><a href="/static/">Articles</a> <a href="/app/">App pages</a></p></main>',
      ),
    ),
  );
  pages.set('/static/', html(listing('Articles', staticPaths)));
  pages.set('/app/', html(listing('App pages', scriptPaths)));
  staticPaths.forEach((p, i) => pages.set(p, html(staticPage(i, staticPages))));
  scriptPaths.forEach((p, i) => {
    pages.set(p, html(scriptPage(i)));
    pages.set(`/api/app-${i}.json`, { type: 'application/json', body: scriptData(i, scriptPages) });
  });
  latePaths.forEach((p, i) => pages.set(p, html(latePage(i))));
  feedPaths.forEach((p, i) => pages.set(p, html(feedPage(i))));
  if (mediaPages > 0) {
    pages.set('/media/', html(listing('Photo stories', mediaPaths)));
    const photos = Array.from({ length: 4 }, (_, n) => noisyPng(n + 1));
    mediaPaths.forEach((p, i) => {
      pages.set(p, html(mediaPage(i, mediaPages, paragraphs(random(20_000 + i), 3))));
      photos.forEach((png, n) => {
        for (let k = n; k < MEDIA_IMAGES; k += photos.length) {
          pages.set(`/media/photo-${i}-${k}.png`, { type: 'image/png', body: png });
        }
      });
      // Not a real font: the browser requests and rejects it, as it would a font it cannot use.
      pages.set(`/media/hive-${i}.woff2`, { type: 'font/woff2', body: 'wOF2' });
    });
  }
  pages.set('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' });

  const server = createServer((request, response) => {
    const page = pages.get(new URL(request.url ?? '/', 'http://bench').pathname);
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not found</h1>');
      return;
    }
    response.writeHead(200, { 'content-type': page.type, 'content-length': Buffer.byteLength(page.body) });
    response.end(page.body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    staticPaths,
    scriptPaths,
    latePaths,
    feedPaths,
    mediaPaths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
