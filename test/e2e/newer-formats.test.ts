import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../helpers/fake-llm-server';
import { startNewerFormatsSite } from '../helpers/newer-formats-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startNewerFormatsSite>>;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
let plain: Awaited<ReturnType<typeof startTestTabhive>>;
let withLlm: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startNewerFormatsSite();
  llm = await startFakeLlmServer();
  [plain, withLlm] = await Promise.all([
    startTestTabhive(),
    startTestTabhive({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'tiny-model' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), withLlm?.stop()]);
  await llm?.close();
  await site?.close();
});
beforeEach(() => llm.reset());

describe('attributes', () => {
  it("reads attribute values from the page's HTML as the browser holds it, after scripts", async () => {
    const { status, json } = await plain.post('/v2/scrape', {
      url: site.url('/product'),
      formats: [
        {
          type: 'attributes',
          selectors: [
            { selector: 'a.buy', attribute: 'href' },
            { selector: '.gallery img', attribute: 'alt' },
            { selector: '#late', attribute: 'data-stock' },
          ],
        },
      ],
    });
    expect(status).toBe(200);
    expect(json.data.attributes).toEqual([
      { selector: 'a.buy', attribute: 'href', values: ['/cart?add=SMK-S', '/cart?add=SMK-L'] },
      { selector: '.gallery img', attribute: 'alt', values: ['Front', 'Side'] },
      { selector: '#late', attribute: 'data-stock', values: ['added-by-script'] },
    ]);
    expect(json.data.markdown).toBeUndefined();
    expect(json.data.metadata.creditsUsed).toBe(1);
  });

  it('refuses a selector that does not parse before fetching the page', async () => {
    const { status, json } = await plain.post('/v2/scrape', {
      url: site.url('/product'),
      formats: [{ type: 'attributes', selectors: [{ selector: 'a[href', attribute: 'href' }] }],
    });
    expect(status).toBe(400);
    expect(JSON.stringify(json.details)).toContain('Invalid CSS selector: a[href');
  });

  it('answers 100 selectors on a page of 100 000 elements, stopping the pathological one', async () => {
    const selectors = [
      { selector: 'li:has(~ li:has(~ li a))', attribute: 'class' },
      ...Array.from({ length: 99 }, (_, i) => ({
        selector: `li.c${i % 5} > a[href$="/${i}"]`,
        attribute: 'href',
      })),
    ];
    const { status, json } = await plain.post('/v2/scrape', {
      url: site.url('/big'),
      formats: [{ type: 'attributes', selectors }],
      timeout: 120_000,
    });
    expect(status).toBe(200);
    expect(json.data.warning).toContain('too costly to match on this page');
    expect(json.data.warning).toContain('li:has(~ li:has(~ li a))');
    const answered = json.data.attributes as Array<{ selector: string; values: string[] }>;
    expect(answered[0]).toEqual({ selector: 'li.c0 > a[href$="/0"]', attribute: 'href', values: ['/p/0'] });
    expect(answered.length).toBeGreaterThan(1);
    const health = await fetch(`${plain.url}/health`);
    expect(health.status).toBe(200);
  });
});

describe('highlights, question and query', () => {
  it('highlights the passages that answer the query, verbatim', async () => {
    const { json } = await plain.post('/v2/scrape', {
      url: site.url('/product'),
      formats: [{ type: 'highlights', query: 'When do orders ship?' }],
    });
    expect(json.data.highlights).toBe(
      'Orders placed before noon ship the same day from our workshop in Lyon.',
    );
    expect(json.data.metadata.creditsUsed).toBe(1);
  });

  it('answers a question with the best passage and a warning when no model is configured', async () => {
    const { json } = await plain.post('/v2/scrape', {
      url: site.url('/product'),
      formats: ['markdown', { type: 'question', question: 'How should I store the smoker?' }],
    });
    expect(json.data.answer).toBe('Empty the ash after each use and store the smoker somewhere dry.');
    expect(json.data.warning).toContain('No LLM is configured, so no model answered the question');
    expect(json.data.markdown).toContain('# Copper Smoker');
    expect(json.data.metadata.creditsUsed).toBe(5);
  });

  it('asks the model when one is configured', async () => {
    llm.answer('Keep it somewhere dry, after emptying the ash.');
    const { json } = await withLlm.post('/v2/scrape', {
      url: site.url('/product'),
      formats: [{ type: 'query', prompt: 'How should I store the smoker?' }],
    });
    expect(json.data.answer).toBe('Keep it somewhere dry, after emptying the ash.');
    expect(json.data.warning).toBeUndefined();
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.body.messages.at(-1)?.content).toContain(
      'Question: How should I store the smoker?',
    );
  });

  it('quotes the page for a directQuote query, without the model', async () => {
    const { json } = await withLlm.post('/v2/scrape', {
      url: site.url('/product'),
      formats: [{ type: 'query', prompt: 'same day shipping', mode: 'directQuote' }],
    });
    // "shipping" is only in the passage's heading, so the heading comes along, as written.
    expect(json.data.answer).toBe(
      '## Shipping\n\nOrders placed before noon ship the same day from our workshop in Lyon.',
    );
    expect(llm.requests).toHaveLength(0);
    expect(json.data.metadata.creditsUsed).toBe(1);
  });
});

describe('product and menu', () => {
  it('reads the product from the JSON-LD the page publishes', async () => {
    const { json } = await plain.post('/v2/scrape', { url: site.url('/product'), formats: ['product'] });
    expect(json.data.product).toEqual({
      title: 'Copper Smoker',
      brand: 'HiveCo',
      url: site.url('/product'),
      description: 'A copper smoker with a heat shield.',
      variants: [
        {
          sku: 'SMK-S',
          title: 'Small',
          price: { amount: 29.9, currency: 'EUR' },
          availability: { inStock: true, text: 'InStock' },
          images: [{ url: site.url('/img/smoker.jpg') }],
        },
        {
          sku: 'SMK-L',
          title: 'Large',
          price: { amount: 39.9, currency: 'EUR' },
          availability: { inStock: false, text: 'OutOfStock' },
          images: [{ url: site.url('/img/smoker.jpg') }],
        },
      ],
    });
    expect(json.data.warning).toBeUndefined();
    expect(json.data.metadata.creditsUsed).toBe(5);
  });

  it('reads the menu from the microdata the page publishes', async () => {
    const { json } = await plain.post('/v2/scrape', { url: site.url('/menu'), formats: ['menu'] });
    expect(json.data.menu).toMatchObject({
      isMenu: true,
      confidence: 1,
      merchant: { name: 'The Hive Bistro', type: 'Restaurant' },
      currency: 'EUR',
      sourceUrl: site.url('/menu'),
      sections: [
        {
          name: 'Starters',
          items: [
            {
              name: 'Honey toast',
              description: 'Sourdough, ricotta and honey.',
              price: { amount: 6.5, currency: 'EUR' },
              dietary: ['vegetarian'],
              availability: { inStock: true },
            },
          ],
        },
        { name: 'Drinks', items: [{ name: 'Mead', price: { amount: 5, currency: 'EUR' } }] },
      ],
    });
  });

  it('leaves product and menu out of a page that states none, and says so', async () => {
    const { status, json } = await plain.post('/v2/scrape', {
      url: site.url('/about'),
      formats: ['product', 'menu'],
    });
    expect(status).toBe(200);
    expect(json.data.product).toBeUndefined();
    expect(json.data.menu).toBeUndefined();
    expect(json.data.warning).toContain('The page states no product');
    expect(json.data.warning).toContain('The page states no menu');
  });

  it('asks the model for the product when the page publishes no structured data', async () => {
    llm.answer(
      JSON.stringify({
        isProduct: true,
        title: 'Deluxe Hive Tool',
        variants: [{ price: { amount: 18, currency: 'EUR' }, availability: { inStock: true } }],
      }),
    );
    const { json } = await withLlm.post('/v2/scrape', { url: site.url('/about'), formats: ['product'] });
    expect(json.data.product).toEqual({
      title: 'Deluxe Hive Tool',
      url: site.url('/about'),
      variants: [{ price: { amount: 18, currency: 'EUR' }, availability: { inStock: true } }],
    });
    expect(llm.requests[0]?.body.messages.at(-1)?.content).toContain('The Deluxe Hive Tool costs 18 EUR');
  });
});

describe('audio and video', () => {
  it("answers with the page's first media files", async () => {
    const { json } = await plain.post('/v2/scrape', { url: site.url('/media'), formats: ['video', 'audio'] });
    expect(json.data.video).toBe(site.url('/media/swarm.webm'));
    expect(json.data.audio).toBe(site.url('/media/episode-7.mp3'));
    expect(json.data.warning).toBeUndefined();
  });

  it('leaves them out of a page with no media, and says so', async () => {
    const { json } = await plain.post('/v2/scrape', {
      url: site.url('/about'),
      formats: ['markdown', 'video'],
    });
    expect(json.data.video).toBeUndefined();
    expect(json.data.warning).toBe('The page names no video file, so video was left out.');
  });
});

describe('parsers', () => {
  it('parses at most maxPages of a PDF, with the pages and page markers asked for, and bills those pages', async () => {
    const { status, json } = await plain.post('/v2/scrape', {
      url: site.url('/doc.pdf'),
      parsers: [{ type: 'pdf', mode: 'fast', maxPages: 2, pages: true, pageMarkers: true }],
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toBe('Page one text\n\n---\n\n<!-- page 2 -->\n\nPage two text');
    expect(json.data.pages).toEqual([
      { pageNumber: 1, markdown: 'Page one text' },
      { pageNumber: 2, markdown: 'Page two text' },
    ]);
    expect(json.data.metadata).toMatchObject({ numPages: 2, totalPages: 4, creditsUsed: 2 });
  });

  it('derives again from the cached PDF when only the parser options differ', async () => {
    const first = await plain.post('/v2/scrape', {
      url: site.url('/doc.pdf'),
      parsers: [{ type: 'pdf', maxPages: 1 }],
    });
    expect(first.json.data.markdown).toBe('Page one text');
    const second = await plain.post('/v2/scrape', { url: site.url('/doc.pdf'), parsers: ['pdf'] });
    expect(second.json.data.metadata.cacheState).toBe('hit');
    expect(second.json.data.markdown).toBe(
      'Page one text\n\nPage two text\n\nPage three text\n\nPage four text',
    );
    expect(second.json.data.metadata.numPages).toBe(4);
    expect(second.json.data.metadata.totalPages).toBeUndefined();
  });

  it('takes the OCR mode and layout blocks: a text-layer PDF keeps its text, with typed blocks', async () => {
    // `mode: "ocr"` reads the images a page paints; this PDF has none, so its text layer stands.
    const ocr = await plain.post('/v2/scrape', {
      url: site.url('/doc.pdf'),
      parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 1 }],
      maxAge: 0,
    });
    expect(ocr.status).toBe(200);
    expect(ocr.json.data.markdown).toContain('Page one text');
    const blocks = await plain.post('/v2/scrape', {
      url: site.url('/doc.pdf'),
      parsers: [{ type: 'pdf', blocks: true, maxPages: 1 }],
      maxAge: 0,
    });
    expect(blocks.status).toBe(200);
    expect(blocks.json.data.blocks?.[0]?.items?.[0]).toMatchObject({
      content: expect.stringContaining('Page one text'),
    });
  });

  it('fails an image clearly when the image parser is asked for, and scrapes it when not', async () => {
    const refused = await plain.post('/v2/scrape', {
      url: site.url('/photo.png'),
      parsers: ['pdf', 'image'],
    });
    expect(refused.status).toBe(500);
    expect(refused.json).toMatchObject({ success: false, code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' });
    expect(refused.json.error).toContain('cannot read text from images');
    const scraped = await plain.post('/v2/scrape', { url: site.url('/photo.png'), parsers: ['pdf'] });
    expect(scraped.status).toBe(200);
  });
});

describe('hostile input', () => {
  it.each([
    ['a selectors string', { formats: [{ type: 'attributes', selectors: 'a' }] }],
    [
      'a selector object without attribute',
      { formats: [{ type: 'attributes', selectors: [{ selector: 'a' }] }] },
    ],
    [
      '101 selectors',
      { formats: [{ type: 'attributes', selectors: Array(101).fill({ selector: 'a', attribute: 'href' }) }] },
    ],
    [
      'a selector of 5 000 characters',
      {
        formats: [
          {
            type: 'attributes',
            selectors: [{ selector: `a${' '.repeat(4_999)}b`.replace(/ /g, 'a'), attribute: 'x' }],
          },
        ],
      },
    ],
    ['a highlights query of 100 KB', { formats: [{ type: 'highlights', query: 'bee '.repeat(25_600) }] }],
    ['a question that is a number', { formats: [{ type: 'question', question: 42 }] }],
    ['parsers with an unknown object', { parsers: [{ type: 'docx' }] }],
    ['maxPages as a string', { parsers: [{ type: 'pdf', maxPages: '2' }] }],
  ])('answers %s with a 400, and the server stays up', async (_what, body) => {
    const { status, json } = await plain.post('/v2/scrape', { url: site.url('/product'), ...body });
    expect(status).toBe(400);
    expect(json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect((await fetch(`${plain.url}/health`)).status).toBe(200);
  });
});
