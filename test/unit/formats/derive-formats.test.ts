import { describe, expect, it } from 'vitest';
import { type BasicFormat, type DeriveOptions, deriveFormats } from '../../../shared/formats/derive-formats';
import { InvalidSelectorError } from '../../../shared/html/clean-html';
import type { PageCapture } from '../../../shared/protocol/messages';

const PAGE_URL = 'https://example.test/shop/item';

function capture(rawHtml: string, overrides: Partial<PageCapture> = {}): PageCapture {
  return {
    url: PAGE_URL,
    statusCode: 200,
    contentType: 'text/html; charset=utf-8',
    rawHtml,
    renderedHtml: rawHtml,
    ...overrides,
  };
}

function options(formats: BasicFormat[], overrides: Partial<DeriveOptions> = {}): DeriveOptions {
  return { formats: new Set(formats), onlyMainContent: true, removeBase64Images: true, ...overrides };
}

const PAGE = `<!DOCTYPE html><html lang="en"><head>
  <title>Item</title><meta name="description" content="An item"><base href="/shop/">
</head><body>
  <nav><a href="/">Home</a><a href="cart">Cart</a></nav>
  <main><h1>Item</h1><p>See <a href="specs">the specs</a> or <a href="#reviews">reviews</a>.</p>
  <img src="data:image/gif;base64,R0lGOD" alt="pixel"></main>
  <footer><a href="/about">About</a></footer>
</body></html>`;

describe('deriveFormats', () => {
  it('reads every link of the raw HTML for a crawl, nav and footer included, whatever the formats keep', () => {
    const derived = deriveFormats(capture(PAGE), options(['markdown', 'links'], { pageLinks: true }));
    expect(derived.pageLinks).toEqual([
      'https://example.test/',
      'https://example.test/shop/cart',
      'https://example.test/shop/specs',
      'https://example.test/about',
    ]);
    // The links format follows onlyMainContent; the crawl's links do not.
    expect(derived.links).toEqual(['https://example.test/shop/specs']);
    expect(deriveFormats(capture(PAGE), options(['markdown']))).not.toHaveProperty('pageLinks');
    expect(
      deriveFormats(
        capture('{"a":1}', { contentType: 'application/json' }),
        options([], { pageLinks: true }),
      ),
    ).toMatchObject({ pageLinks: [] });
  });

  it('returns only the requested formats, plus metadata', () => {
    const derived = deriveFormats(capture(PAGE), options(['markdown']));
    expect(Object.keys(derived).sort()).toEqual(['markdown', 'metadata']);
    expect(derived.markdown).toBe(
      '# Item\n\nSee [the specs](https://example.test/shop/specs) or [reviews](https://example.test/shop/#reviews).\n\n![pixel](<Base64-Image-Removed>)',
    );
  });

  it('gives rawHtml verbatim and html cleaned', () => {
    const derived = deriveFormats(capture(PAGE), options(['rawHtml', 'html']));
    expect(derived.rawHtml).toBe(PAGE);
    expect(derived.html).toContain('<main><h1>Item</h1>');
    expect(derived.html).toContain('href="https://example.test/shop/specs"');
    expect(derived.html).not.toContain('<nav');
    expect(derived.html).not.toContain('<title');
  });

  it('takes links from the cleaned HTML, without same-page anchors', () => {
    expect(deriveFormats(capture(PAGE), options(['links'])).links).toEqual([
      'https://example.test/shop/specs',
    ]);
    expect(deriveFormats(capture(PAGE), options(['links'], { onlyMainContent: false })).links).toEqual([
      'https://example.test/',
      'https://example.test/shop/cart',
      'https://example.test/shop/specs',
      'https://example.test/about',
    ]);
  });

  it('reads metadata from rawHtml and content from renderedHtml', () => {
    const rendered = '<html><body><main><h1>Rendered</h1><a href="specs">Specs</a></main></body></html>';
    const derived = deriveFormats(capture(PAGE, { renderedHtml: rendered }), options(['markdown', 'links']));
    expect(derived.metadata).toMatchObject({ title: 'Item', description: 'An item', language: 'en' });
    expect(derived.markdown).toBe('# Rendered\n\n[Specs](https://example.test/shop/specs)');
    // The rendered DOM has no <head>; the <base> of the raw page still applies.
    expect(derived.links).toEqual(['https://example.test/shop/specs']);
  });

  it('keeps base64 images when removeBase64Images is false', () => {
    const derived = deriveFormats(capture(PAGE), options(['markdown'], { removeBase64Images: false }));
    expect(derived.markdown).toContain('![pixel](data:image/gif;base64,R0lGOD)');
  });

  it('applies includeTags and excludeTags', () => {
    const html =
      '<html><body><main><h1>Item</h1><p class="price">$5</p><p class="promo">Sale!</p></main></body></html>';
    expect(
      deriveFormats(capture(html), options(['markdown'], { includeTags: ['h1', '.price'] })).markdown,
    ).toBe('# Item\n\n$5');
    expect(deriveFormats(capture(html), options(['markdown'], { excludeTags: ['.promo'] })).markdown).toBe(
      '# Item\n\n$5',
    );
  });

  it('throws InvalidSelectorError for a bad selector', () => {
    expect(() => deriveFormats(capture(PAGE), options(['markdown'], { excludeTags: ['a[href'] }))).toThrow(
      InvalidSelectorError,
    );
  });

  describe('when the main content comes out empty', () => {
    // Everything on this page sits in what the blocklist calls chrome.
    const chromeOnly =
      '<html><body><div class="header"><h1>Status</h1></div><nav><a href="/up">All systems up</a></nav></body></html>';

    it('silently retries with the whole page', () => {
      const derived = deriveFormats(capture(chromeOnly), options(['markdown', 'links', 'html']));
      expect(derived.markdown).toBe('# Status\n\n[All systems up](https://example.test/up)');
      expect(derived.links).toEqual(['https://example.test/up']);
      expect(derived.html).toContain('<nav>');
    });

    it('retries even when markdown was not requested', () => {
      expect(deriveFormats(capture(chromeOnly), options(['links'])).links).toEqual([
        'https://example.test/up',
      ]);
    });

    it('does not retry when onlyMainContent found content', () => {
      const derived = deriveFormats(capture(PAGE), options(['links']));
      expect(derived.links).not.toContain('https://example.test/about');
    });
  });

  describe('documents that are not HTML', () => {
    const json = '{\n  "name": "tabhive",\n  "tags": ["<b>"]\n}\n';

    it('renders JSON as a fenced json block and escaped <pre>', () => {
      const derived = deriveFormats(
        capture(json, { contentType: 'application/json; charset=utf-8', renderedHtml: '<pre>…</pre>' }),
        options(['markdown', 'html', 'rawHtml', 'links']),
      );
      expect(derived).toEqual({
        markdown: '```json\n{\n  "name": "tabhive",\n  "tags": ["<b>"]\n}\n```',
        html: '<pre>{\n  "name": "tabhive",\n  "tags": ["&lt;b&gt;"]\n}\n</pre>',
        rawHtml: json,
        links: [],
        metadata: {},
      });
    });

    it('treats +json media types as JSON', () => {
      const derived = deriveFormats(
        capture('{"a":1}', { contentType: 'application/ld+json' }),
        options(['markdown']),
      );
      expect(derived.markdown).toBe('```json\n{"a":1}\n```');
    });

    it('gives plain text as its own markdown', () => {
      const text = 'Line one with <angle> & *stars*\nLine two\n';
      const derived = deriveFormats(
        capture(text, { contentType: 'text/plain' }),
        options(['markdown', 'html']),
      );
      expect(derived.markdown).toBe('Line one with <angle> & *stars*\nLine two');
      expect(derived.html).toBe('<pre>Line one with &lt;angle&gt; &amp; *stars*\nLine two\n</pre>');
    });
  });
});
