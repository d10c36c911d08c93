import { describe, expect, it } from 'vitest';
import { RENDERED_MESSAGE } from '../helpers/fixture-site';
import { useSiteAndTabhive } from '../helpers/use-site-and-tabhive';

/**
 * The HTTP fast path (HTTP_FAST_PATH, on by default) against the browser on the same pages. A
 * request with a header of its own always goes to the browser, and the fixture pages ignore the
 * header, so the same Tabhive gives both documents; the site's log tells which path served.
 */
const env = useSiteAndTabhive();

const FORMATS = ['markdown', 'html', 'links', 'rawHtml'];
const BROWSER_ONLY = { headers: { 'x-fast-path-test': 'browser' } };

const isChrome = (headers: Record<string, unknown>) => String(headers['user-agent']).includes('Chrome');
const hitsOf = (path: string) => env.site.hits.filter((hit) => hit.path === path);

async function scrape(path: string, extra: Record<string, unknown> = {}) {
  const { status, json } = await env.tabhive.post('/v2/scrape', {
    url: env.site.url(path),
    formats: FORMATS,
    maxAge: 0,
    ...extra,
  });
  expect(status).toBe(200);
  return json.data;
}

/** What must not differ between the two paths: the formats and the metadata, ids and timing aside. */
function comparable(document: Record<string, unknown>) {
  const {
    scrapeId: _id,
    cacheState: _state,
    cachedAt: _at,
    ...metadata
  } = document.metadata as Record<string, unknown>;
  return { markdown: document.markdown, html: document.html, links: document.links, metadata };
}

describe('the HTTP fast path', () => {
  it.each([
    '/index.html',
    '/product.html',
    '/tabbed-product.html',
    '/docs/getting-started.html',
    '/search-form.html',
    '/moved',
    '/no-such-page',
  ])('gives %s the document the browser gives, without a browser', async (path) => {
    const before = hitsOf(path).length;
    const fast = await scrape(path);
    const fastHits = hitsOf(path).slice(before);
    expect(fastHits.length).toBe(1);
    expect(isChrome(fastHits[0]!.headers)).toBe(false);

    const browser = await scrape(path, BROWSER_ONLY);
    expect(
      hitsOf(path)
        .slice(before)
        .some((hit) => isChrome(hit.headers)),
    ).toBe(true);
    expect(comparable(fast)).toEqual(comparable(browser));
  });

  it('keeps folded tab panels, and only those, of what is not displayed, on both paths', async () => {
    for (const extra of [{}, BROWSER_ONLY]) {
      const document = await scrape('/tabbed-product.html', { ...extra, onlyMainContent: true });
      expect(document.markdown).toContain('never crushes a bee');
      expect(document.markdown).toContain('fits Langstroth and Dadant frames');
      expect(document.markdown).toContain('rinse in warm soapy water');
      expect(document.markdown).not.toContain('Hidden promotion');
    }
  });

  it('sends a page rendered by a script to the browser and returns what the script wrote', async () => {
    const before = hitsOf('/js-rendered.html').length;
    const document = await scrape('/js-rendered.html');
    expect(document.markdown).toContain(RENDERED_MESSAGE);
    expect(
      hitsOf('/js-rendered.html')
        .slice(before)
        .some((hit) => isChrome(hit.headers)),
    ).toBe(true);
  });

  it('sends a request that needs a browser (here a screenshot) to it at once', async () => {
    const before = hitsOf('/index.html').length;
    const document = await scrape('/index.html', { formats: ['markdown', 'screenshot'] });
    expect(document.screenshot).toBeDefined();
    const hits = hitsOf('/index.html').slice(before);
    expect(hits.length).toBe(1);
    expect(isChrome(hits[0]!.headers)).toBe(true);
  });
});
