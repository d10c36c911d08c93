import type { BasicFormat, DerivedFormats } from '../../../../shared/formats/derive-formats';
import type { PageBlocks } from '../ocr/layout-blocks';
import { type PdfPage, pdfToMarkdown } from './pdf-to-markdown';
import type { PdfParseOptions } from './requested-parsers';

/** DerivedFormats plus what billing needs to know about a parsed PDF. */
export interface PdfDerivation extends DerivedFormats {
  /** Pages parsed (docs/wire-contract.md §9: 1 + (N − 1) credits); 0 when it was not parsed. */
  pdfPages: number;
  /** Pages the PDF has, when `maxPages` was given (`metadata.totalPages`). Not a format. */
  pdfTotalPages?: number;
  /** With the parser's `pages`: the Markdown of each page parsed. */
  pages?: PdfPage[];
  /** With the parser's `blocks`: each page's typed layout blocks. */
  blocks?: PageBlocks[];
}

/**
 * The formats of a PDF document (docs/wire-contract.md §3.6): parsed to Markdown when `parsePdf` (v2 `parsers`
 * with "pdf", v1 `parsePDF`), reporting the pages parsed (the scraper's `metadata.numPages`, and
 * `metadata.totalPages` when `maxPages` or the default page cap (pdf-limits.ts) was in play); otherwise its bytes, base64,
 * stand in for the Markdown and it costs a flat credit. Pages without a text layer are OCRed
 * (or every page, as the parser's `mode` says), at the same credit per page. html carries the text as paragraphs;
 * links and images are empty, as a PDF's text layer has none to give.
 */
export async function derivePdf(
  pdfBase64: string,
  {
    formats,
    parsePdf,
    pdf = {},
  }: { formats: ReadonlySet<BasicFormat>; parsePdf: boolean; pdf?: PdfParseOptions | undefined },
): Promise<PdfDerivation> {
  if (!parsePdf) {
    return { ...(formats.has('markdown') ? { markdown: pdfBase64 } : {}), metadata: {}, pdfPages: 0 };
  }
  const { markdown, numPages, totalPages, pages, blocks, title } = await pdfToMarkdown(
    new Uint8Array(Buffer.from(pdfBase64, 'base64')),
    pdf,
  );
  const derived: PdfDerivation = {
    metadata: title === undefined ? {} : { title },
    pdfPages: numPages,
    // Also when the default page cap cut it short, so the caller sees that it did.
    ...(pdf.maxPages === undefined && numPages === totalPages ? {} : { pdfTotalPages: totalPages }),
    ...(pages === undefined ? {} : { pages }),
    ...(blocks === undefined ? {} : { blocks }),
  };
  if (formats.has('markdown')) derived.markdown = markdown;
  if (formats.has('html') || formats.has('rawHtml')) {
    const html = markdown
      .split(/\n{2,}/)
      .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
      .join('\n');
    if (formats.has('html')) derived.html = html;
    if (formats.has('rawHtml')) derived.rawHtml = html;
  }
  if (formats.has('links')) derived.links = [];
  if (formats.has('images')) derived.images = [];
  return derived;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
