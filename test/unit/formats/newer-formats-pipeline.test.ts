import { describe, expect, it } from 'vitest';
import { FormatsV2 } from '../../../shared/api/v2/formats';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import { minimalPdf } from '../../helpers/minimal-pdf';
import { cacheKey } from '../../../server/scrape/capture/cache-key';
import { deriveOptionsKey } from '../../../server/scrape/derive/derivation-memo';
import { refuseImageForOcr } from '../../../server/scrape/capture/image-parser';
import { pageReadsRequest } from '../../../server/scrape/derive/formats/page-reads';
import { readFormats } from '../../../server/scrape/enrich/formats/read-formats';
import { scrapeCredits } from '../../../server/scrape/admit/scrape-credits';
import { type PageDeriveOptions, derivePage } from '../../../server/scrape/derive/derive-page';
import { deriveFetchedPage } from '../../../server/scrape/derive/derive-fetched-page';

const PAGE_URL = 'https://shop.test/smoker';
const HTML = `<!DOCTYPE html><html><head><title>Smoker</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Copper Smoker",
"offers":{"@type":"Offer","price":"39.90","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>
</head><body><main><h1>Copper Smoker</h1><p>Calms bees. Costs 39.90 EUR.</p>
<a class="buy" href="/cart?add=smk">Add to cart</a><video src="/media/demo.mp4"></video></main></body></html>`;

const capture = (overrides: Partial<PageCapture> = {}): PageCapture => ({
  url: PAGE_URL,
  statusCode: 200,
  contentType: 'text/html',
  rawHtml: HTML,
  renderedHtml: HTML,
  ...overrides,
});

const options = (overrides: Partial<PageDeriveOptions> = {}): PageDeriveOptions => ({
  formats: new Set(['markdown']),
  onlyMainContent: true,
  removeBase64Images: true,
  parsePdf: true,
  ...overrides,
});

const formats = (value: unknown[]) => FormatsV2.parse(value);

describe('the page-reading formats in the derivation', () => {
  const asked = formats([
    'product',
    'video',
    'audio',
    { type: 'attributes', selectors: [{ selector: 'a.buy', attribute: 'href' }] },
  ]);

  it('are read from the raw HTML where the worker parses it', async () => {
    const reads = pageReadsRequest(asked);
    expect(reads).toEqual({
      product: true,
      media: ['video', 'audio'],
      attributes: [{ selector: 'a.buy', attribute: 'href' }],
    });
    const derived = await derivePage(capture(), options({ reads }));
    expect(derived.markdown).toContain('Calms bees.');
    expect(derived.reads?.product).toMatchObject({
      title: 'Copper Smoker',
      variants: [{ price: { amount: 39.9 } }],
    });
    expect(readFormats(asked, derived.reads)).toEqual({
      attributes: [{ selector: 'a.buy', attribute: 'href', values: ['/cart?add=smk'] }],
      video: 'https://shop.test/media/demo.mp4',
      warnings: ['The page names no audio file, so audio was left out.'],
    });
  });

  it('are read on the HTTP fast path too, from the same parse', async () => {
    const { renderedHtml: _rendered, ...fetched } = capture();
    const outcome = await deriveFetchedPage(fetched, options({ reads: pageReadsRequest(asked) }));
    expect(outcome.needsBrowser).toBeUndefined();
    if (outcome.needsBrowser === undefined) {
      expect(outcome.derived.reads?.attributes?.attributes[0]?.values).toEqual(['/cart?add=smk']);
      expect(outcome.derived.reads?.product?.title).toBe('Copper Smoker');
    }
  });

  it('read nothing from a document that is not HTML', async () => {
    const derived = await derivePage(
      capture({ contentType: 'application/json', rawHtml: '{"a":1}', renderedHtml: '' }),
      options({ reads: pageReadsRequest(asked) }),
    );
    expect(readFormats(asked, derived.reads)).toEqual({
      attributes: [{ selector: 'a.buy', attribute: 'href', values: [] }],
      warnings: [
        'The page names no video file, so video was left out.',
        'The page names no audio file, so audio was left out.',
      ],
    });
  });
});

describe('PDF parser options', () => {
  const pdf = minimalPdf(['First page text', '', 'Third page text', 'Fourth page text']).toString('base64');
  const pdfCapture = capture({
    contentType: 'application/pdf',
    rawHtml: '',
    renderedHtml: '',
    pdfBase64: pdf,
  });

  it('parse every page by default, blank pages left out of the Markdown', async () => {
    const derived = await derivePage(pdfCapture, options());
    expect(derived.markdown).toBe('First page text\n\nThird page text\n\nFourth page text');
    expect(derived.pdfPages).toBe(4);
    expect(derived.pdfTotalPages).toBeUndefined();
    expect(derived.pages).toBeUndefined();
  });

  it('parse at most maxPages, report the total, and fill pages with every page read', async () => {
    const derived = await derivePage(pdfCapture, options({ pdf: { maxPages: 3, pages: true } }));
    expect(derived.markdown).toBe('First page text\n\nThird page text');
    expect(derived.pdfPages).toBe(3);
    expect(derived.pdfTotalPages).toBe(4);
    expect(derived.pages).toEqual([
      { pageNumber: 1, markdown: 'First page text' },
      { pageNumber: 2, markdown: '' },
      { pageNumber: 3, markdown: 'Third page text' },
    ]);
    expect(scrapeCredits({ pdfPages: derived.pdfPages })).toBe(3);
  });

  it('mark where pages start, between pages only', async () => {
    const derived = await derivePage(pdfCapture, options({ pdf: { pageMarkers: true } }));
    expect(derived.markdown).toBe(
      'First page text\n\n---\n\n<!-- page 3 -->\n\nThird page text\n\n---\n\n<!-- page 4 -->\n\nFourth page text',
    );
  });
});

describe('keys', () => {
  const request = (body: Record<string, unknown>) =>
    ScrapeRequestV2.parse({ url: 'https://site.test/doc.pdf', ...body });

  it('the cache key separates parsed from unparsed PDFs only: parser options change the derivation, not the capture', () => {
    const plain = cacheKey(request({}));
    expect(cacheKey(request({ parsers: [{ type: 'pdf', maxPages: 2, pages: true }] }))).toBe(plain);
    expect(cacheKey(request({ parsers: ['pdf', 'image'] }))).toBe(plain);
    expect(cacheKey(request({ parsers: [{ type: 'image' }] }))).not.toBe(plain);
    expect(cacheKey(request({ parsers: [] }))).not.toBe(plain);
  });

  it('the derivation memo key separates every option that changes the output', () => {
    const keys = [
      options(),
      options({ pdf: { maxPages: 2 } }),
      options({ pdf: { maxPages: 3 } }),
      options({ pdf: { pages: true } }),
      options({ pdf: { pageMarkers: true } }),
      options({ reads: { product: true } }),
      options({ reads: { attributes: [{ selector: 'a', attribute: 'href' }] } }),
      options({ reads: { attributes: [{ selector: 'a', attribute: 'title' }] } }),
    ].map(deriveOptionsKey);
    expect(new Set(keys).size).toBe(keys.length);
    const hundredSelectors = Array.from({ length: 100 }, (_, i) => ({
      selector: `a.c${i}${'x'.repeat(900)}`,
      attribute: 'href',
    }));
    expect(deriveOptionsKey(options({ reads: { attributes: hundredSelectors } })).length).toBe(
      keys[0]?.length,
    );
  });
});

describe('credits of the newer formats', () => {
  it('price model extraction once, and reading the page at the base price', () => {
    expect(
      scrapeCredits({ formats: formats(['markdown', { type: 'highlights', query: 'x' }, 'audio', 'video']) }),
    ).toBe(1);
    expect(
      scrapeCredits({
        formats: formats([{ type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] }]),
      }),
    ).toBe(1);
    expect(scrapeCredits({ formats: formats([{ type: 'query', prompt: 'x', mode: 'directQuote' }]) })).toBe(
      1,
    );
    expect(scrapeCredits({ formats: formats([{ type: 'question', question: 'x' }]) })).toBe(5);
    expect(scrapeCredits({ formats: formats([{ type: 'query', prompt: 'x' }]) })).toBe(5);
    expect(scrapeCredits({ formats: formats(['product']) })).toBe(5);
    expect(scrapeCredits({ formats: formats(['menu', 'product', { type: 'json', prompt: 'x' }]) })).toBe(5);
  });
});

describe('the image parser', () => {
  it('fails an image with the unsupported-file error, and leaves other documents alone', () => {
    const image = capture({ contentType: 'image/png', url: 'https://site.test/photo.png' });
    expect(() => refuseImageForOcr(image, true)).toThrow(
      expect.objectContaining({
        kind: 'failed',
        code: 'SCRAPE_UNSUPPORTED_FILE_ERROR',
        message: expect.stringContaining('cannot read text from images'),
      }),
    );
    expect(() => refuseImageForOcr(image, false)).not.toThrow();
    expect(() => refuseImageForOcr(capture(), true)).not.toThrow();
  });
});
