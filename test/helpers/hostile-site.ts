import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The loopback address the hostile site listens on: the test allows this one address and no other. */
export const HOSTILE_SITE_ADDRESS = '127.0.0.2';
/** Its public-looking name, which the test's DNS (server) and --host-resolver-rules (browser) map. */
export const HOSTILE_SITE_NAME = 'front.test';

/**
 * A site an attacker controls, trying to make Tabhive reach internal services: redirects (HTTP,
 * meta refresh, script), a sitemap and robots.txt listing internal URLs, links to them, and a page
 * whose scripts and elements request them. `internal` is the list of internal URLs it aims at.
 */
export async function startHostileSite({ internal }: { internal: () => readonly string[] }) {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://front.test');
    const to = url.searchParams.get('to') ?? '';
    const html = (body: string, head = '') =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html><head><title>Front</title>${head}</head><body>${body}</body></html>`);
    switch (url.pathname) {
      case '/':
        html('<h1>Front page</h1><p>Nothing to see here.</p>');
        return;
      case '/redirect':
        response.writeHead(302, { location: to }).end();
        return;
      case '/meta':
        html('<p>Moving on</p>', `<meta http-equiv="refresh" content="0;url=${to}">`);
        return;
      case '/script':
        html(`<p>Moving on</p><script>location.href = ${JSON.stringify(to)};</script>`);
        return;
      case '/links':
        html(
          `<h1>Links</h1>${internal()
            .map((href) => `<a href="${href}">${href}</a>`)
            .join('\n')}`,
        );
        return;
      case '/robots.txt':
        response.writeHead(200, { 'content-type': 'text/plain' }).end(
          `User-agent: *\nAllow: /\n${internal()
            .map((href) => `Sitemap: ${href}`)
            .join('\n')}\n`,
        );
        return;
      case '/sitemap.xml':
        response.writeHead(200, { 'content-type': 'application/xml' }).end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${internal()
            .map((href) => `<url><loc>${href.replaceAll('&', '&amp;')}</loc></url>`)
            .join('')}</urlset>`,
        );
        return;
      case '/hostile':
        html(hostilePage(internal()), '');
        return;
      default:
        response.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, HOSTILE_SITE_ADDRESS, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path: string) => `http://${HOSTILE_SITE_NAME}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page that asks for every internal URL in every way a page can, and shows what came back. */
function hostilePage(targets: readonly string[]): string {
  const list = JSON.stringify(targets);
  const elements = targets
    .map(
      (target, index) =>
        `<img src="${target}"><iframe src="${target}"></iframe>` +
        `<script src="${target}"></script><link rel="stylesheet" href="${target}">` +
        `<object data="${target}"></object><div id="out${index}"></div>`,
    )
    .join('\n');
  return `<h1>Hostile page</h1>${elements}
<script>
  const targets = ${list};
  targets.forEach((target, index) => {
    fetch(target).then((r) => r.text()).then((text) => {
      document.getElementById('out' + index).textContent = text;
    }).catch(() => {});
    const xhr = new XMLHttpRequest();
    xhr.open('GET', target);
    xhr.onload = () => { document.body.append(xhr.responseText); };
    xhr.send();
    try { new WebSocket(target.replace(/^http/, 'ws')); } catch {}
    try { navigator.sendBeacon(target, 'x'); } catch {}
    try { new EventSource(target); } catch {}
  });
  try { window.open(targets[0]); } catch {}
</script>`;
}
