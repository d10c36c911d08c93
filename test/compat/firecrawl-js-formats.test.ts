import Firecrawl, { SdkError } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNewerFormatsSite } from '../helpers/newer-formats-site';
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

  it('reports the refused parser options and formats as the SDK reports a 400', async () => {
    const blocks = await firecrawl
      .scrape(site.url('/doc.pdf'), { parsers: [{ type: 'pdf', blocks: true }] })
      .catch((error: unknown) => error);
    expect(blocks).toBeInstanceOf(SdkError);
    expect((blocks as SdkError).status).toBe(400);
    expect(JSON.stringify((blocks as SdkError).details)).toContain('layout blocks');
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
