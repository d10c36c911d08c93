import type { BasicFormat, DerivedFormats } from '../../../shared/formats/derive-formats';
import { pdfToMarkdown } from './pdf-to-markdown';

/** DerivedFormats plus what billing needs to know about a parsed PDF. */
export interface PdfDerivation extends DerivedFormats {
  /** Pages of a parsed PDF (contract §9: 1 + (N − 1) credits); 0 when it was not parsed. */
  pdfPages: number;
}

/**
 * The formats of a PDF document (contract §3.6): parsed to Markdown when `parsePdf` (v2 `parsers`
 * with "pdf", v1 `parsePDF`), reporting its page count (the scraper's `metadata.numPages`); otherwise its bytes, base64, stand in for
 * the Markdown and it costs a flat credit. html carries the text as paragraphs; links and images
 * are empty, as a PDF's text layer has none to give.
 */
export async function derivePdf(
  pdfBase64: string,
  { formats, parsePdf }: { formats: ReadonlySet<BasicFormat>; parsePdf: boolean },
): Promise<PdfDerivation> {
  if (!parsePdf) {
    return { ...(formats.has('markdown') ? { markdown: pdfBase64 } : {}), metadata: {}, pdfPages: 0 };
  }
  const { markdown, numPages, title } = await pdfToMarkdown(new Uint8Array(Buffer.from(pdfBase64, 'base64')));
  const derived: PdfDerivation = {
    metadata: title === undefined ? {} : { title },
    pdfPages: numPages,
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
