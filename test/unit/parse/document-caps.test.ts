import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../server/products/parse/convert/convert-document';
import { MAX_WORKBOOK_TEXT_CHARS } from '../../../server/products/parse/convert/sheet-grid';
import { DocumentProblem } from '../../../server/products/parse/document-problem';
import type { FileKind } from '../../../server/products/parse/file-kinds';
import { DEFAULT_ZIP_LIMITS } from '../../../server/products/parse/zip/zip-limits';
import { DEFAULT_PDF_LIMITS } from '../../../server/scrape/derive/pdf/pdf-limits';
import { pdfToMarkdown } from '../../../server/scrape/derive/pdf/pdf-to-markdown';
import { DerivationLimit } from '../../../server/scrape/derive/derivation-errors';
import { flateBombPdf, longRowsXlsx, manyPagesPdf } from '../../helpers/hostile-documents';

const convert = (kind: FileKind, bytes: Uint8Array) =>
  convertDocument({ bytes, kind, title: 'caps', zipLimits: DEFAULT_ZIP_LIMITS });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('limits on what one document may cost', { timeout: 30_000 }, () => {
  it('refuses a PDF whose Flate streams inflate past the limit before pdf.js reads it', async () => {
    const bomb = flateBombPdf(8);
    const limits = { ...DEFAULT_PDF_LIMITS, maxInflatedBytes: 4 * 1024 * 1024 };
    const err = await refusal(pdfToMarkdown(new Uint8Array(bomb), {}, limits));
    expect(err).toBeInstanceOf(DerivationLimit);
    expect((err as Error).message).toMatch(/unpack to more than 4194304 bytes.*compression bomb/);
    // The conversion of an upload refuses it the same way, as an archive limit.
    const upload = await refusal(convert('pdf', flateBombPdf(300)));
    expect(upload).toBeInstanceOf(DocumentProblem);
    expect(upload).toMatchObject({ kind: 'archive-limit' });
  });

  it('counts every Flate stream whatever its dictionary says, and Flate inside Flate', async () => {
    const limits = { ...DEFAULT_PDF_LIMITS, maxInflatedBytes: 4 * 1024 * 1024 };
    const bomb = flateBombPdf(8).toString('latin1');
    // A key after the filter that a dictionary parser could take for the object's start, and no
    // filter declared at all: pdf.js may still inflate what the bytes are.
    const variants = [
      bomb.replace('/Filter /FlateDecode', '/Filter /FlateDecode /Xobj 1'),
      bomb.replace(' /Filter /FlateDecode', ''),
    ].map((variant) => Buffer.from(variant, 'latin1'));
    for (const variant of variants) {
      const err = await refusal(pdfToMarkdown(new Uint8Array(variant), {}, limits));
      expect(err).toBeInstanceOf(DerivationLimit);
    }
    const twice = await refusal(pdfToMarkdown(new Uint8Array(flateBombPdf(8, 2)), {}, limits));
    expect(twice).toBeInstanceOf(DerivationLimit);
    expect((twice as Error).message).toMatch(/compression bomb/);
  });

  it('stops reading a PDF as soon as its text passes the limit', async () => {
    const limits = { ...DEFAULT_PDF_LIMITS, maxTextChars: 100_000 };
    const err = await refusal(pdfToMarkdown(new Uint8Array(flateBombPdf(8)), {}, limits));
    expect(err).toBeInstanceOf(DerivationLimit);
    expect((err as Error).message).toBe(
      'The PDF holds more than 100000 characters of text, the most one document may',
    );
  });

  it('reads a PDF without maxPages only up to the default page cap, and says how many it has', async () => {
    const limits = { ...DEFAULT_PDF_LIMITS, defaultMaxPages: 10 };
    const text = await pdfToMarkdown(new Uint8Array(manyPagesPdf(50)), {}, limits);
    expect(text).toMatchObject({ numPages: 10, totalPages: 50 });
    expect(await pdfToMarkdown(new Uint8Array(manyPagesPdf(50)), { maxPages: 20 }, limits)).toMatchObject({
      numPages: 20,
    });
  });

  it('cuts a PDF whose pages take longer than the read budget to reach, after at least one', async () => {
    const limits = { ...DEFAULT_PDF_LIMITS, maxReadMs: 0 };
    expect(await pdfToMarkdown(new Uint8Array(manyPagesPdf(50)), {}, limits)).toMatchObject({
      numPages: 1,
      totalPages: 50,
    });
  });

  it('refuses a workbook at the text limit while its sheet is read', async () => {
    const err = await refusal(convert('xlsx', longRowsXlsx(20_000)));
    expect(err).toBeInstanceOf(DocumentProblem);
    expect(err).toMatchObject({
      kind: 'archive-limit',
      message: `the table holds more than ${MAX_WORKBOOK_TEXT_CHARS} characters of text`,
    });
  });

  it('refuses a CSV at the first record past the text limit', async () => {
    const cell = 'y'.repeat(4096);
    const csv = Array.from({ length: 5_000 }, () => `${cell},${cell}`).join('\n');
    const err = await refusal(convert('csv', new TextEncoder().encode(csv)));
    expect(err).toBeInstanceOf(DocumentProblem);
    expect(err).toMatchObject({
      kind: 'archive-limit',
      message: expect.stringMatching(/characters of text/),
    });
  });
});
