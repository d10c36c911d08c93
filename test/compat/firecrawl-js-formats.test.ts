import Firecrawl, { SdkError } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNewerFormatsSite } from '../helpers/newer-formats-site';
import { startPromptInjectionSite } from '../helpers/prompt-injection-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The `firecrawl` npm package's v2 client with the newer scrape formats (attributes, highlights,
 * question, query, product, menu, audio, video) and the parser objects, as a user writes them:
 * what is asserted is what the SDK hands back.
 */

let site: Awaited<ReturnType<typeof startNewerFormatsSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

beforeAll(async () => {
  site = await startNewerFormatsSite();
  tabhive = await startTestTabhive();
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

describe('JS SDK v2 client: newer formats', () => {
  it('scrape() with attributes, highlights, question, product, video and audio', async () => {
    const document = await firecrawl.scrape(site.url('/product'), {
      formats: [
        { type: 'attributes', selectors: [{ selector: 'a.buy', attribute: 'href' }] },
        { type: 'highlights', query: 'When do orders ship?' },
        { type: 'question', question: 'How should I store the smoker?' },
        'product',
        'video',
      ],
    });
    expect(document.attributes).toEqual([
      { selector: 'a.buy', attribute: 'href', values: ['/cart?add=SMK-S', '/cart?add=SMK-L'] },
    ]);
    expect(document.highlights).toBe(
      'Orders placed before noon ship the same day from our workshop in Lyon.',
    );
    expect(document.answer).toBe('Empty the ash after each use and store the smoker somewhere dry.');
    expect(document.product?.title).toBe('Copper Smoker');
    expect(document.product?.variants.map((variant) => variant.availability.inStock)).toEqual([true, false]);
    expect(document.video).toBeUndefined();
    expect(document.warning).toContain('The page names no video file');
    expect(document.metadata?.creditsUsed).toBe(5);
  });

  it('scrape() with the deprecated query format in directQuote mode, menu and audio', async () => {
    const menu = await firecrawl.scrape(site.url('/menu'), {
      formats: ['menu', { type: 'query', prompt: 'mead', mode: 'directQuote' }],
    });
    expect(menu.menu?.sections.map((section) => section.name)).toEqual(['Starters', 'Drinks']);
    expect(menu.answer).toBe('### Mead\n\n5');
    const media = await firecrawl.scrape(site.url('/media'), { formats: ['audio', 'video'] });
    expect(media.audio).toBe(site.url('/media/episode-7.mp3'));
    expect(media.video).toBe(site.url('/media/swarm.webm'));
  });

  it('scrape() with a PDF parser object: maxPages, pages and pageMarkers', async () => {
    const document = await firecrawl.scrape(site.url('/doc.pdf'), {
      parsers: [{ type: 'pdf', mode: 'auto', maxPages: 3, pages: true, pageMarkers: true }],
    });
    expect(document.pages?.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
    expect(document.markdown).toContain('<!-- page 3 -->');
    expect(document.metadata).toMatchObject({ numPages: 3, totalPages: 4, creditsUsed: 3 });
  });

  it('answers PDF layout blocks, and refuses an image URL the image parser cannot OCR', async () => {
    const document = await firecrawl.scrape(site.url('/doc.pdf'), {
      parsers: [{ type: 'pdf', mode: 'fast', blocks: true, maxPages: 1 }],
    });
    expect(document.blocks?.[0]).toMatchObject({ pageNumber: 1, status: 'ok' });
    expect(document.blocks?.[0]?.items[0]).toMatchObject({ source: 'text-layer', readingOrder: 0 });
    const image = await firecrawl
      .scrape(site.url('/photo.png'), { parsers: ['image'] })
      .catch((error: unknown) => error);
    expect(image).toMatchObject({ status: 500, code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' });
    expect((image as SdkError).message).toContain('cannot read text from images');
  });

  it('batchScrape() with the newer formats in its scrape options', async () => {
    const job = await firecrawl.batchScrape([site.url('/product'), site.url('/about')], {
      options: { formats: ['product', { type: 'highlights', query: 'beekeepers tools' }] },
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    const bySource = new Map(job.data.map((doc) => [new URL(doc.metadata?.sourceURL ?? '').pathname, doc]));
    expect(bySource.get('/product')?.product?.title).toBe('Copper Smoker');
    expect(bySource.get('/about')?.product).toBeUndefined();
    expect(bySource.get('/about')?.highlights).toBe(
      'We are three beekeepers who started selling tools in 2019.',
    );
    expect(job.creditsUsed).toBe(10);
  });
});

describe('JS SDK v2 client: prompt-injection screening and knowledgeGraph', () => {
  let corpus: Awaited<ReturnType<typeof startPromptInjectionSite>>;
  beforeAll(async () => {
    corpus = await startPromptInjectionSite();
  });
  afterAll(() => corpus?.close());

  it("fails the scrape with SCRAPE_PROMPT_INJECTION_DETECTED when the json format's checkPromptInjection is set", async () => {
    const error = await firecrawl
      .scrape(corpus.url('/injection/offscreen-absolute.html'), {
        formats: [{ type: 'json', prompt: 'Which cake is this?', checkPromptInjection: true }],
      })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ status: 422, code: 'SCRAPE_PROMPT_INJECTION_DETECTED' });
    expect((error as SdkError).details).toMatchObject({
      findings: [{ rule: 'hidden-instruction', where: 'off-screen' }],
    });
  });

  it('lets a page that quotes an injection in code through, and answers a knowledgeGraph', async () => {
    const article = await firecrawl.scrape(corpus.url('/clean/security-article-code.html'), {
      formats: [{ type: 'json', prompt: 'What should scanners flag?', checkPromptInjection: true }],
    });
    expect(article.metadata?.creditsUsed).toBe(9);
    // The SDK's types know no knowledgeGraph format or field; it passes both through unchanged.
    const graph = (await firecrawl.scrape(corpus.url('/graph'), {
      formats: [{ type: 'knowledgeGraph', entityTypes: ['Organization'] } as unknown as 'markdown'],
    })) as { knowledgeGraph?: { entities: Array<{ name: string; type: string }>; relations: unknown[] } };
    expect(graph.knowledgeGraph?.entities.map((entity) => `${entity.type}:${entity.name}`)).toEqual([
      'Organization:Valley Honey Coop',
    ]);
    expect(graph.knowledgeGraph?.relations).toEqual([]);
  });
});
