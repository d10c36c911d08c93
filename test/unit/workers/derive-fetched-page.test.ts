import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { deriveFetchedPage } from '../../../server/scrape/derive/derive-fetched-page';
import { derivePage } from '../../../server/scrape/derive/derive-page';

vi.mock('../../../shared/html/parse-html', { spy: true });

const options = {
  formats: new Set(['markdown', 'html', 'links', 'images', 'rawHtml'] as const),
  onlyMainContent: true,
  removeBase64Images: true,
  parsePdf: false,
};
const STATIC_PAGE = `<!doctype html><html><head><title>Hives</title><meta name="description" content="On hives">
<base href="https://example.test/docs/"></head><body><nav><a href="/">Home</a></nav>
<main><h1>Hives</h1><p>${'A hive holds a colony of bees, its comb and its honey. '.repeat(8)}</p>
<p hidden>Not shown</p><img src="comb.png" alt="Comb"><a href="frames.html">Frames</a></main></body></html>`;

describe('a page fetched for the HTTP fast path', () => {
  beforeEach(() => {
    // In braces: vitest calls what a beforeEach returns as its clean-up, and mockClear returns the mock.
    vi.mocked(parseHtml).mockClear();
  });

  it('is parsed once, and derives as a capture of it would', async () => {
    const page = { url: 'https://example.test/docs/hives', statusCode: 200, rawHtml: STATIC_PAGE };
    const outcome = await deriveFetchedPage(page, options);
    if (outcome.needsBrowser !== undefined) throw new Error(`needs a browser: ${outcome.needsBrowser}`);
    // The verdict, the metadata, the images, cleaning and Markdown all read one parse (main-content
    // extraction parses the article it extracted, a fragment, on top); the rendered HTML is written, not read.
    const parsed = vi.mocked(parseHtml).mock.calls.map(([html]) => html);
    expect(parsed.filter((html) => html === STATIC_PAGE)).toHaveLength(1);
    expect(parsed.filter((html) => html === outcome.capture.renderedHtml)).toHaveLength(0);
    expect(outcome.capture.renderedHtml).not.toContain('Not shown');
    expect(outcome.derived).toEqual(await derivePage(outcome.capture, options));
    expect(outcome.derived).toMatchObject({
      metadata: { title: 'Hives', description: 'On hives' },
      images: ['https://example.test/docs/comb.png'],
      links: ['https://example.test/docs/frames.html'],
    });
  });

  it('is parsed once when it needs a browser', async () => {
    const outcome = await deriveFetchedPage(
      {
        url: 'https://example.test/',
        statusCode: 200,
        rawHtml: '<div id="root"></div><script src="/app.js"></script>',
      },
      options,
    );
    expect(outcome).toEqual({ needsBrowser: 'empty framework mount point' });
    expect(vi.mocked(parseHtml)).toHaveBeenCalledTimes(1);
  });
});
