import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { minimalPdf } from './minimal-pdf';

const PAGES_DIR = fileURLToPath(new URL('../fixtures/pages', import.meta.url));

/** The palette and fonts branding.html declares; the branding test looks for them. */
export const BRAND = {
  background: '#FAF7F0',
  text: '#1F2937',
  primary: '#E4572E',
  link: '#2E86AB',
  bodyFont: 'Inter',
  headingFont: 'Playfair Display',
  radius: '6px',
};

const BRANDING_PAGE = `<!doctype html><html lang="en"><head><title>Ember Roasters</title>
<meta property="og:site_name" content="Ember Roasters">
<meta property="og:image" content="/og.png">
<link rel="icon" href="/favicon.svg">
<style>
  body { background: ${BRAND.background}; color: ${BRAND.text}; font: 16px/1.5 "${BRAND.bodyFont}", Arial, sans-serif; margin: 0; padding: 16px; }
  h1, h2 { font-family: "${BRAND.headingFont}", Georgia, serif; font-weight: 700; }
  h1 { font-size: 40px; }
  a { color: ${BRAND.link}; }
  .cta { background: ${BRAND.primary}; color: #FFFFFF; border: 0; border-radius: ${BRAND.radius}; padding: 8px 16px; }
  .ghost { background: transparent; color: ${BRAND.primary}; border: 2px solid ${BRAND.primary}; border-radius: ${BRAND.radius}; padding: 8px 16px; }
  section { padding: 32px 16px; margin-bottom: 24px; }
</style></head><body>
<header><img class="logo" src="/logo.svg" alt="Ember Roasters logo"></header>
<main><h1>Small-batch coffee</h1><section><p>Roasted on Tuesdays, shipped on Wednesdays. <a href="/beans">See the beans</a>.</p>
<button class="cta">Order now</button> <button class="ghost">Learn more</button></section></main>
</body></html>`;

/**
 * A long page of `count` sections: megabytes of HTML in few elements, so the browser lays it out
 * quickly and the time goes into turning it into Markdown.
 */
export function largePage(count: number): string {
  const sentence = 'Sturdy canvas tote with leather handles, stitched by hand in a small workshop. ';
  const sections = Array.from(
    { length: count },
    (_, index) => `<h2>Product ${index}</h2>\n<p>${sentence.repeat(25)}<a href="/p/${index}">Details</a></p>`,
  ).join('\n');
  return `<!doctype html><html><head><title>Catalogue</title></head><body><h1>Catalogue</h1>\n${sections}</body></html>`;
}

/**
 * The pages the content e2e tests scrape: the golden pages (`/pages/<slug>`), PDFs served as
 * `.pdf` and from an address without the extension, a page with a known palette, a large page.
 */
export async function startContentSite() {
  const pdf = minimalPdf(['PDF Test File', 'The second page.', 'The third page.'], 'Test PDF');
  const large = largePage(2_200);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://content');
    const golden = /^\/pages\/([a-z0-9-]+)$/.exec(url.pathname);
    if (golden) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(readFileSync(`${PAGES_DIR}/${golden[1]}/source.html`));
      return;
    }
    switch (url.pathname) {
      case '/report.pdf':
      case '/download':
        response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
        response.end(pdf);
        return;
      case '/branding.html':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(BRANDING_PAGE);
        return;
      case '/large.html':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(large);
        return;
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    largeBytes: Buffer.byteLength(large),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
