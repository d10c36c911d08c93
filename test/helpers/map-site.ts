import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A site for map tests on loopback under `map.localhost`, with the subdomain `blog.map.localhost`
 * and an unrelated `other.localhost` (Chromium and the egress resolve `*.localhost` to loopback):
 *
 * - robots.txt disallows `/private/` and names `/sitemap-index.xml`, a sitemap index of a gzipped
 *   child (`/sitemaps/pages.xml.gz`, served as octet-stream) and a plain one (`/sitemaps/blog.xml`,
 *   which also lists the subdomain);
 * - `/` links to `/only-linked.html` (in no sitemap), a private page, another site and an image;
 * - `/docs/getting-started.html` links to `/docs/deep-dive.html`, found only through it;
 * - `/pricing.html` links to `/pricing/enterprise.html`, found only through it.
 */
export async function startMapSite() {
  const hits: string[] = [];
  let port = 0;
  const origin = (host = 'map.localhost') => `http://${host}:${port}`;
  const page = (title: string, description: string, links: string[]) =>
    `<!doctype html><html><head><title>${title}</title><meta name="description" content="${description}"></head>` +
    `<body><main><h1>${title}</h1><p>${description}</p>` +
    `<ul>${links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('')}</ul></main></body></html>`;
  const urlset = (urls: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
    urls.map((url) => `<url><loc>${url}</loc></url>`).join('') +
    `</urlset>`;

  const pages: Record<string, [title: string, description: string, links: string[]]> = {
    '/': [
      'Map Site',
      'The home page.',
      [
        '/docs/',
        '/only-linked.html',
        '/private/secret.html',
        'http://other.localhost:PORT/elsewhere.html',
        '/logo.png',
      ],
    ],
    '/docs/': ['Documentation', 'All the docs.', ['/docs/getting-started.html', '/docs/api-reference.html']],
    '/docs/getting-started.html': [
      'Getting started',
      'Install and first steps.',
      ['/docs/deep-dive.html', '/'],
    ],
    '/docs/deep-dive.html': ['Deep dive', 'Internals explained.', ['/']],
    '/docs/api-reference.html': ['API reference', 'Every endpoint and parameter.', ['/']],
    '/pricing.html': ['Pricing', 'Plans and prices.', ['/', '/pricing/enterprise.html']],
    '/pricing/enterprise.html': ['Enterprise', 'For large teams.', ['/']],
    '/about.html': ['About us', 'Who we are.', ['/']],
    '/only-linked.html': ['Hidden gem', 'Reachable only through a link on the home page.', ['/']],
    '/blog/hello-world.html': ['Hello world', 'The first blog post.', ['/']],
    '/private/secret.html': ['Secret', 'Disallowed by robots.txt.', ['/']],
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const host = (request.headers.host ?? '').split(':')[0] ?? '';
    hits.push(`${host}${url.pathname}`);
    const send = (type: string, body: string | Buffer) => {
      response.writeHead(200, { 'content-type': type });
      response.end(body);
    };
    if (host === 'blog.map.localhost')
      return send('text/html', page('Blog post', 'On the subdomain.', ['/']));
    const path = url.pathname;
    if (path === '/robots.txt')
      return send(
        'text/plain',
        `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin()}/sitemap-index.xml\n`,
      );
    if (path === '/sitemap-index.xml')
      return send(
        'application/xml',
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<sitemap><loc>${origin()}/sitemaps/pages.xml.gz</loc></sitemap>` +
          `<sitemap><loc>${origin()}/sitemaps/blog.xml</loc></sitemap></sitemapindex>`,
      );
    if (path === '/sitemaps/pages.xml.gz')
      return send(
        'application/octet-stream',
        gzipSync(
          urlset(
            [
              '/',
              '/docs/',
              '/docs/getting-started.html',
              '/docs/api-reference.html',
              '/pricing.html',
              '/about.html?ref=sitemap',
              '/logo.png',
              '/private/secret.html',
            ].map((p) => `${origin()}${p}`),
          ),
        ),
      );
    if (path === '/sitemaps/blog.xml')
      return send(
        'application/xml',
        urlset([`${origin()}/blog/hello-world.html`, `${origin('blog.map.localhost')}/post-1.html`]),
      );
    const known = pages[path];
    if (known !== undefined) {
      const [title, description, links] = known;
      return send(
        'text/html; charset=utf-8',
        page(
          title,
          description,
          links.map((l) => l.replace('PORT', String(port))),
        ),
      );
    }
    response.writeHead(404, { 'content-type': 'text/html' });
    response.end(page('Not found', 'Nothing here.', []));
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string, host = 'map.localhost') => `${origin(host)}${path}`,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
