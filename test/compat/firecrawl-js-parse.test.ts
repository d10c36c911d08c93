import Firecrawl, { SdkError } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, docxBomb, ods, pptx, xlsx } from '../fixtures/documents/office-documents';
import { wordAccuracy } from '../../bench/quality/ocr-word-accuracy';
import { minimalPdf } from '../helpers/minimal-pdf';
import { OCR_SAMPLES, ocrFixture, ocrFixturePixels, sampleText } from '../helpers/ocr-fixtures';
import { writeScannedPdf } from '../helpers/scanned-pdf';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The official `firecrawl` npm package's `parse()` (multipart upload to /v2/parse) for every kind
 * of document Tabhive converts, asserting the Markdown the SDK hands back. No browser is started:
 * an upload needs none.
 */

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

beforeAll(async () => {
  tabhive = await startTestTabhive({ browsers: 0 });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
});

describe('JS SDK v2 client: parse', () => {
  it('parses a DOCX given as a Buffer, with the metadata of a scrape', async () => {
    const document = await firecrawl.parse(
      {
        data: docx([{ heading: 'Field guide' }, { paragraph: 'Worker bees forage.' }], { title: 'Guide' }),
        filename: 'guide.docx',
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
      { formats: ['markdown', 'html'] },
    );
    expect(document.markdown).toBe('# Field guide\n\nWorker bees forage.');
    expect(document.html).toContain('<h1>Field guide</h1>');
    expect(document.metadata).toMatchObject({
      title: 'Guide',
      sourceURL: 'guide.docx',
      statusCode: 200,
      creditsUsed: 1,
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
  });

  it('parses a PDF page by page, numPages and credits included', async () => {
    const document = await firecrawl.parse({
      data: minimalPdf(['Page one text', 'Page two text'], 'Two pages'),
      filename: 'two.pdf',
      contentType: 'application/pdf',
    });
    expect(document.markdown).toBe('Page one text\n\nPage two text');
    expect(document.metadata).toMatchObject({ title: 'Two pages', numPages: 2, creditsUsed: 2 });
  });

  it('parses XLSX and ODS workbooks into a table per sheet', async () => {
    const workbook = await firecrawl.parse({
      data: xlsx([
        {
          name: 'Stock',
          rows: [
            ['Item', 'Jars'],
            ['Honey', 12],
          ],
        },
      ]),
      filename: 'stock.xlsx',
    });
    expect(workbook.markdown).toBe('## Stock\n\n| Item | Jars |\n| --- | --- |\n| Honey | 12 |');
    const spreadsheet = await firecrawl.parse({
      data: new Uint8Array(
        ods([
          {
            name: 'Bees',
            rows: [
              ['Kind', 'Count'],
              ['Drone', 3],
            ],
          },
        ]),
      ),
      filename: 'bees.ods',
    });
    expect(spreadsheet.markdown).toBe('## Bees\n\n| Kind | Count |\n| --- | --- |\n| Drone | 3 |');
  });

  it('parses a PPTX into a section per slide, in order', async () => {
    const document = await firecrawl.parse({
      data: pptx([
        { title: 'Intro', body: ['Hello'] },
        { title: 'End', body: ['Bye'] },
      ]),
      filename: 'talk.pptx',
    });
    expect(document.markdown).toBe('## Slide 1: Intro\n\nHello\n\n## Slide 2: End\n\nBye');
  });

  it('parses HTML, Markdown, CSV and plain text given as strings', async () => {
    const html = await firecrawl.parse(
      {
        data: '<html><head><title>Page</title></head><body><h1>Hi</h1><p>There</p></body></html>',
        filename: 'page.html',
        contentType: 'text/html',
      },
      { onlyMainContent: false },
    );
    expect(html.markdown).toBe('# Hi\n\nThere');
    expect(html.metadata?.title).toBe('Page');
    const markdown = await firecrawl.parse({ data: '# Title\n\nSome *emphasis*.', filename: 'notes.md' });
    expect(markdown.markdown).toBe('# Title\n\nSome *emphasis*.');
    const csv = await firecrawl.parse({ data: 'a,b\n1,2\n', filename: 'table.csv', contentType: 'text/csv' });
    expect(csv.markdown).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
    const text = await firecrawl.parse({ data: 'Just words.\n', filename: 'words.txt' });
    expect(text.markdown).toBe('Just words.');
  });

  it('surfaces the server refusals as SdkErrors with their status and code', async () => {
    const mislabelled = await firecrawl
      .parse({ data: minimalPdf(['x']), filename: 'report.docx' })
      .catch((err: unknown) => err);
    expect(mislabelled).toBeInstanceOf(SdkError);
    expect(mislabelled).toMatchObject({ status: 415, code: 'UNSUPPORTED_FILE_TYPE' });
    const bomb = await firecrawl
      .parse({ data: docxBomb(), filename: 'bomb.docx' })
      .catch((err: unknown) => err);
    expect(bomb).toMatchObject({ status: 422, code: 'ARCHIVE_LIMIT_EXCEEDED' });
    // The client refuses what parse cannot do before sending anything.
    await expect(
      firecrawl.parse({ data: 'x', filename: 'a.txt' }, { formats: ['screenshot'] } as never),
    ).rejects.toThrow('parse does not support screenshot format');
  });

  it('OCRs an uploaded image with the image parser', { timeout: 60_000 }, async () => {
    const sample = OCR_SAMPLES[1]!;
    const document = await firecrawl.parse(
      { data: ocrFixture(sample, 'webp'), filename: 'notes.webp', contentType: 'image/webp' },
      { parsers: ['image'] },
    );
    expect(wordAccuracy(sampleText(sample), document.markdown ?? '').accuracy).toBeGreaterThanOrEqual(0.95);
    expect(document.metadata).toMatchObject({ contentType: 'image/webp', creditsUsed: 1 });
  });

  it(
    'OCRs the scanned pages of a PDF in mode "auto", with pages and typed blocks',
    { timeout: 90_000 },
    async () => {
      const [scanned] = OCR_SAMPLES;
      const document = await firecrawl.parse(
        {
          data: writeScannedPdf([{ scan: ocrFixturePixels(scanned!) }, { text: ['Typed second page'] }]),
          filename: 'mixed.pdf',
        },
        { parsers: [{ type: 'pdf', mode: 'auto', pages: true, blocks: true }] },
      );
      expect(document.pages?.map((page) => page.pageNumber)).toEqual([1, 2]);
      expect(
        wordAccuracy(sampleText(scanned!), document.pages?.[0]?.markdown ?? '').accuracy,
      ).toBeGreaterThanOrEqual(0.95);
      expect(document.pages?.[1]?.markdown).toBe('Typed second page');
      const [first, second] = document.blocks ?? [];
      expect(first?.items[0]).toMatchObject({ type: 'heading', source: 'ocr', readingOrder: 0 });
      expect(first?.items.every((item) => item.bbox?.length === 4 && (item.confidence.ocr ?? 0) > 0.5)).toBe(
        true,
      );
      expect(second?.items[0]).toMatchObject({
        type: 'paragraph',
        source: 'text-layer',
        content: 'Typed second page',
      });
      expect(document.metadata).toMatchObject({ numPages: 2, creditsUsed: 2 });
    },
  );
});
