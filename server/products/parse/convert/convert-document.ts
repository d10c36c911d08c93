import {
  checkPdfInflation,
  DEFAULT_PDF_LIMITS,
  DerivationLimit,
  readImageFormat,
} from '../../../scrape/derive';
import { decodeHtml, looksLikeText } from '../decode-text';
import { DocumentProblem } from '../document-problem';
import type { FileKind } from '../file-kinds';
import { openZip } from '../zip/open-zip';
import type { ZipLimits } from '../zip/zip-limits';

export interface ConvertJob {
  bytes: Uint8Array;
  kind: FileKind;
  /** The upload's name without its extension: the title of a document that declares none. */
  title: string;
  zipLimits: ZipLimits;
  /** The "image" parser is asked for (or `parsers` left at its default): images are read with OCR. */
  ocrImages?: boolean;
}

/**
 * What the scrape pipeline takes the document as: HTML (every kind but these two), the text of a
 * plain-text file (the pipeline keeps text as it is), or a PDF that opens, with its page count
 * (the pipeline parses PDFs itself, from the bytes the caller still holds).
 */
export type Converted =
  { as: 'html'; html: string } | { as: 'text'; text: string } | { as: 'pdf'; pages: number };

/**
 * Converts one upload; throws DocumentProblem for a document that cannot be. Each converter is
 * loaded when its kind first comes: a conversion worker starts with none of them.
 */
export async function convertDocument({
  bytes,
  kind,
  title,
  zipLimits,
  ocrImages = false,
}: ConvertJob): Promise<Converted> {
  switch (kind) {
    case 'pdf':
      return { as: 'pdf', pages: await countPdfPages(bytes) };
    case 'docx': {
      const { docxToHtml } = await import('./docx-to-html');
      return { as: 'html', html: await docxToHtml(openZip(bytes, zipLimits), title) };
    }
    case 'xlsx': {
      const { xlsxToHtml } = await import('./xlsx-to-html');
      return { as: 'html', html: xlsxToHtml(openZip(bytes, zipLimits), title) };
    }
    case 'pptx': {
      const { pptxToHtml } = await import('./pptx-to-html');
      return { as: 'html', html: pptxToHtml(openZip(bytes, zipLimits), title) };
    }
    case 'ods': {
      const { odsToHtml } = await import('./ods-to-html');
      return { as: 'html', html: odsToHtml(openZip(bytes, zipLimits), title) };
    }
    case 'html':
      return { as: 'html', html: decodeHtml(bytes) };
    case 'markdown': {
      const { markdownToHtml } = await import('./markdown-to-html');
      return { as: 'html', html: markdownToHtml(text(bytes), title) };
    }
    case 'csv':
    case 'tsv': {
      const { csvToHtml } = await import('./csv-to-html');
      return { as: 'html', html: csvToHtml(text(bytes), kind, title) };
    }
    case 'text':
      return { as: 'text', text: text(bytes) };
    case 'image': {
      const format = readImageFormat(bytes);
      if (format === undefined) throw new DocumentProblem('broken', 'its image header cannot be read');
      if (!ocrImages) {
        throw new DocumentProblem(
          'unsupported',
          'images are read with OCR only when "parsers" lists "image" (or is left out)',
        );
      }
      const { imageToHtml } = await import('./image-to-html');
      return { as: 'html', html: await imageToHtml(bytes, format, title) };
    }
  }
}

function text(bytes: Uint8Array): string {
  const decoded = looksLikeText(bytes);
  if (decoded === undefined) throw new DocumentProblem('broken', 'it holds binary data, not text');
  return decoded;
}

/**
 * Opens the PDF as the pipeline will (pdf.js, through unpdf), so that a broken one is a 422 here,
 * and one whose streams inflate beyond the limit is refused here, in a thread of its own.
 */
async function countPdfPages(bytes: Uint8Array): Promise<number> {
  try {
    await checkPdfInflation(bytes, DEFAULT_PDF_LIMITS.maxInflatedBytes);
  } catch (err) {
    if (err instanceof DerivationLimit) throw new DocumentProblem('archive-limit', err.message);
    throw err;
  }
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (err) {
    throw new DocumentProblem('broken', `the PDF is corrupt or truncated (${(err as Error).message})`);
  }
  try {
    return pdf.numPages;
  } finally {
    await pdf.cleanup().catch(() => undefined);
  }
}
