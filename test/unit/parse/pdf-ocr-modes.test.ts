import { describe, expect, it } from 'vitest';
import { wordAccuracy } from '../../../bench/quality/ocr-word-accuracy';
import { PageBlocks } from '../../../shared/api/responses/page-blocks';
import { pdfToMarkdown } from '../../../server/scrape/derive/pdf/pdf-to-markdown';
import { OCR_SAMPLES, ocrFixturePixels, sampleText } from '../../helpers/ocr-fixtures';
import { writeScannedPdf } from '../../helpers/scanned-pdf';

/**
 * The PDF parser's modes on a PDF of both kinds of page: page 1 a scan (one image, no text
 * layer), page 2 typed text (a text layer, no image), page 3 another scan.
 */
const [first, , third] = OCR_SAMPLES;
const typed = ['Typed Page Heading', 'This page has a real text layer.'];
const pdf = () =>
  new Uint8Array(
    writeScannedPdf([
      { scan: ocrFixturePixels(first!) },
      { text: typed },
      { scan: ocrFixturePixels(third!) },
    ]),
  );

describe('PDF parser modes', () => {
  it('"fast" reads the text layer only: scanned pages come back empty', async () => {
    const read = await pdfToMarkdown(pdf(), { mode: 'fast', pages: true });
    expect(read.ocrPages).toBe(0);
    expect(read.markdown).toBe('Typed Page Heading\nThis page has a real text layer.');
    expect(read.pages?.map((page) => page.markdown === '')).toEqual([true, false, true]);
  });

  it('"auto" (the default) OCRs only the pages without a text layer', { timeout: 90_000 }, async () => {
    const read = await pdfToMarkdown(pdf(), { pages: true, blocks: true });
    expect(read.ocrPages).toBe(2);
    expect(read.numPages).toBe(3);
    expect(wordAccuracy(sampleText(first!), read.pages?.[0]?.markdown ?? '').accuracy).toBeGreaterThanOrEqual(
      0.95,
    );
    expect(read.pages?.[1]?.markdown).toBe('Typed Page Heading\nThis page has a real text layer.');
    expect(wordAccuracy(sampleText(third!), read.pages?.[2]?.markdown ?? '').accuracy).toBeGreaterThanOrEqual(
      0.95,
    );
    expect(read.blocks?.map((page) => page.items[0]?.source)).toEqual(['ocr', 'text-layer', 'ocr']);
  });

  it(
    '"ocr" OCRs every page that has an image, and keeps the text layer of one that has none',
    { timeout: 90_000 },
    async () => {
      const read = await pdfToMarkdown(pdf(), { mode: 'ocr', pages: true, maxPages: 2 });
      expect(read.ocrPages).toBe(1);
      expect(read.numPages).toBe(2);
      expect(read.totalPages).toBe(3);
      expect(read.markdown).toContain('Quarterly Shipping Report');
      expect(read.markdown).toContain('Typed Page Heading');
    },
  );

  it(
    "answers typed blocks in the clients' shape: boxes on the page, reading order, spans into the Markdown",
    { timeout: 90_000 },
    async () => {
      const read = await pdfToMarkdown(pdf(), { blocks: true, pageMarkers: true });
      const blocks = PageBlocks.array().parse(read.blocks);
      expect(blocks.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
      const scanned = blocks[0]!;
      expect(scanned).toMatchObject({ width: 612, status: 'ok' });
      expect(scanned.items[0]).toMatchObject({
        type: 'heading',
        content: expect.stringMatching(/^#+ Quarterly Shipping Report$/),
      });
      expect(scanned.items.slice(1).map((item) => item.type)).toEqual([
        'paragraph',
        'paragraph',
        'paragraph',
      ]);
      expect(scanned.items.map((item) => item.readingOrder)).toEqual([0, 1, 2, 3]);
      for (const page of blocks) {
        for (const item of page.items) {
          const [left, top, right, bottom] = item.bbox!;
          expect(left).toBeGreaterThanOrEqual(0);
          expect(top).toBeGreaterThanOrEqual(0);
          expect(right).toBeLessThanOrEqual(page.width!);
          expect(bottom).toBeLessThanOrEqual(page.height!);
          expect(right).toBeGreaterThan(left);
          expect(bottom).toBeGreaterThan(top);
          // Each block's content stands in document.markdown where its span says.
          expect(read.markdown.slice(...item.markdownSpan!)).toBe(item.content);
        }
      }
      // Blocks read top to bottom.
      const tops = scanned.items.map((item) => item.bbox![1]);
      expect([...tops].sort((a, b) => a - b)).toEqual(tops);
      expect(scanned.items.every((item) => (item.confidence.ocr ?? 0) > 0.5)).toBe(true);
      expect(blocks[1]!.items[0]).toMatchObject({ source: 'text-layer', confidence: { ocr: null } });
    },
  );
});
