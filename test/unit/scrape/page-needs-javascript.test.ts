import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { pageNeedsJavaScript } from '../../../server/scrape/derive/fetched-page/page-needs-javascript';

const ARTICLE = `<h1>Hives</h1><p>${'Bees keep their honey in wax cells built by the workers. '.repeat(8)}</p>`;
const verdict = (html: string) =>
  pageNeedsJavaScript(
    parseHtml(`<!doctype html><html><head><title>t</title></head><body>${html}</body></html>`),
  );

describe('pageNeedsJavaScript', () => {
  it('lets a text page without scripts through', () => {
    expect(verdict(ARTICLE)).toBeUndefined();
  });

  it('lets a short page without scripts through: there is nothing a browser would add', () => {
    expect(verdict('<p>Short.</p>')).toBeUndefined();
  });

  it('lets a text page through when its scripts only read the page or carry data', () => {
    expect(
      verdict(
        `${ARTICLE}<script>window.dataLayer = window.dataLayer || []; dataLayer.push({ page: 1 });</script>` +
          '<script type="application/ld+json">{"@type":"Article","text":"document.write"}</script>' +
          '<script src="/analytics.js" async></script>',
      ),
    ).toBeUndefined();
  });

  it('sends a client-rendered shell to the browser', () => {
    expect(verdict('<div id="root"></div><script src="/bundle.js"></script>')).toBe(
      'empty framework mount point',
    );
    expect(verdict('<app-root></app-root><script src="/main.js"></script>')).toBe(
      'empty framework mount point',
    );
  });

  it('keeps a server-rendered framework page off the browser', () => {
    expect(
      verdict(`<div id="__next">${ARTICLE}</div><script src="/_next/main.js"></script>`),
    ).toBeUndefined();
  });

  it('sends a page with little text besides scripts to the browser', () => {
    expect(verdict('<main><p>Loading…</p></main><script src="/app.js"></script>')).toBe(
      'little text besides scripts',
    );
  });

  it('sends a page whose inline script writes content to the browser', () => {
    expect(
      verdict(
        `${ARTICLE}<div id="x"></div><script>document.getElementById('x').textContent = 'late';</script>`,
      ),
    ).toBe('an inline script writes the page');
    expect(verdict(`${ARTICLE}<script>document.write('<p>hi</p>')</script>`)).toBe(
      'an inline script writes the page',
    );
    expect(
      verdict(`${ARTICLE}<script type="module">list.append(document.createElement('li'))</script>`),
    ).toBe('an inline script writes the page');
  });

  it('sends a page whose noscript asks for JavaScript to the browser', () => {
    expect(verdict(`${ARTICLE}<noscript>Please enable JavaScript to use this site.</noscript>`)).toBe(
      'noscript asks for JavaScript',
    );
    expect(verdict(`${ARTICLE}<noscript><img src="/pixel.gif" alt=""></noscript>`)).toBeUndefined();
  });

  it('sends a page with a meta refresh to the browser', () => {
    const html = `<!doctype html><html><head><meta http-equiv="Refresh" content="0; url=/next"></head><body>${ARTICLE}</body></html>`;
    expect(pageNeedsJavaScript(parseHtml(html))).toBe('meta refresh');
  });
});
