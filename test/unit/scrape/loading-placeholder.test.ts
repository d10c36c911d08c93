import { describe, expect, it } from 'vitest';
import {
  isLoadingMessage,
  looksLikeLoadingPlaceholder,
} from '../../../server/scrape/capture/loading-placeholder';

const page = (body: string, head = '<title>Acme</title>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const capture = (html: string, contentType = 'text/html') => ({
  rawHtml: html,
  renderedHtml: html,
  contentType,
});

describe('a loading placeholder', () => {
  it.each([
    ['a lone loading message', page('<div class="center">Loading...</div>')],
    ['an ellipsis character', page('<p>Loading…</p><script src="/app.js"></script>')],
    ['a site name and a loading message', page('<header>Acme</header><main><p>Loading&hellip;</p></main>')],
    ['please wait', page('<div>Please wait...</div>')],
    ['loading and please wait together', page('<p>Loading, please wait.</p>')],
    ['a progress figure', page('<div id="app"><span>Loading 42%</span></div>')],
    ['a message about what loads', page('<div>Loading your dashboard…</div>')],
    ['another language', page('<div>Chargement en cours...</div>')],
    ['an empty app root', page('<div id="root"></div><script src="/static/js/main.js"></script>')],
    ['an app root holding only a script', page('<div id="__next"><script>self.x=1</script></div>')],
    ['a spinner and no text', page('<div class="app"><div class="lds-spinner"></div></div>')],
    ['a progress bar and no text', page('<div role="progressbar" aria-valuenow="10"></div>')],
    ['a busy region and no text', page('<main aria-busy="true"><div></div></main>')],
    ['a spinner drawn as an image', page('<div class="loader"><img src="/spinner.gif" alt=""></div>')],
  ])('is recognised: %s', (_name, html) => {
    expect(looksLikeLoadingPlaceholder(capture(html))).toBe(true);
  });

  it('is judged on the rendered HTML, where hidden nodes are gone', () => {
    const raw = page('<div id="root"><h1>Orders</h1><p>Three orders are on their way.</p></div>');
    const rendered = page('<div>Loading…</div>');
    expect(
      looksLikeLoadingPlaceholder({ rawHtml: raw, renderedHtml: rendered, contentType: 'text/html' }),
    ).toBe(true);
    expect(
      looksLikeLoadingPlaceholder({ rawHtml: rendered, renderedHtml: raw, contentType: 'text/html' }),
    ).toBe(false);
  });
});

describe('a short page of its own', () => {
  it.each([
    ['a one-line OK page', page('OK', '')],
    ['a 404 text page', page('<h1>404 Not Found</h1><p>The page you asked for does not exist.</p>')],
    ['a short title and one paragraph', page('<h1>Opening hours</h1><p>We are open from nine to five.</p>')],
    [
      'a word that starts like a loading message',
      page('<p>Loading dock hours: 9 to 5, Monday to Friday.</p>'),
    ],
    ['please wait in a sentence', page('<p>Please wait for our next issue, coming in May.</p>')],
    ['downloading', page('<p>Downloading…</p>')],
    ['an empty page', page('')],
    ['an app root with content', page('<div id="root"><h1>Hello</h1></div>')],
    ['a picture and no text', page('<div id="app"><img src="/photo.jpg" alt=""></div>')],
    ['a canvas game', page('<div id="root"><canvas width="800" height="600"></canvas></div>')],
    [
      'a page that lazy-loads one part',
      page(
        `<article><h1>Report</h1>${'<p>Sales rose again this quarter, led by the northern stores.</p>'.repeat(6)}<div class="spinner">Loading…</div></article>`,
      ),
    ],
  ])('is not a placeholder: %s', (_name, html) => {
    expect(looksLikeLoadingPlaceholder(capture(html))).toBe(false);
  });

  it('is not judged when it is not HTML', () => {
    expect(looksLikeLoadingPlaceholder(capture('Loading...', 'text/plain'))).toBe(false);
    expect(looksLikeLoadingPlaceholder(capture('{"status":"loading"}', 'application/json'))).toBe(false);
    expect(
      looksLikeLoadingPlaceholder({ ...capture(''), contentType: 'application/pdf', pdfBase64: 'JVBERi0=' }),
    ).toBe(false);
  });
});

describe('isLoadingMessage', () => {
  it('wants a loading phrase and little else', () => {
    expect(isLoadingMessage('Loading')).toBe(true);
    expect(isLoadingMessage('One moment, please')).toBe(true);
    expect(isLoadingMessage('読み込み中…')).toBe(true);
    expect(isLoadingMessage('')).toBe(false);
    expect(
      isLoadingMessage(
        'Acme Loading… if nothing happens within a minute, check your connection and reload the page, or contact support for more help',
      ),
    ).toBe(false);
  });
});
