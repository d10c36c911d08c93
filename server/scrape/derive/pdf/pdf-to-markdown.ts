import { getDocumentProxy, getMeta } from 'unpdf';
import { DerivationLimit } from '../derivation-errors';
import { checkPdfInflation } from './check-pdf-inflation';
import { DEFAULT_PDF_LIMITS, type PdfLimits } from './pdf-limits';
import type { PdfParseOptions } from './requested-parsers';

/** The Markdown of one physical page (`document.pages`). */
export interface PdfPage {
  pageNumber: number;
  markdown: string;
}

export interface PdfText {
  markdown: string;
  /** Pages read: all of them, or `maxPages` (or the default cap, or those read in time) when the PDF has more. */
  numPages: number;
  /** Pages the PDF has. */
  totalPages: number;
  /** Every page read, empty ones included, with `pages`. */
  pages?: PdfPage[];
  title?: string;
}

/** Put between pages with `pageMarkers`; N is the page whose text follows (Firecrawl's form). */
const pageMarker = (pageNumber: number) => `\n\n---\n\n<!-- page ${pageNumber} -->\n\n`;

/**
 * The text of a PDF as Markdown, page after page, with pdf.js (through unpdf, which bundles a
 * build that needs no canvas or native module). PDFs carry positioned glyph runs, not structure:
 * lines are kept as pdf.js joins them, and blank lines separate pages, so a reader or an LLM gets
 * the reading order without invented headings. Pages past `maxPages` (`limits.defaultMaxPages`
 * without it) are never read. Pages with no text are left out of `markdown` (so page markers may
 * skip numbers) but kept in `pages`. A document whose streams inflate beyond the limit is refused
 * before pdf.js reads it, and one whose text runs past the limit as soon as it does (DerivationLimit).
 */
export async function pdfToMarkdown(
  bytes: Uint8Array,
  options: PdfParseOptions = {},
  limits: PdfLimits = DEFAULT_PDF_LIMITS,
): Promise<PdfText> {
  await checkPdfInflation(bytes, limits.maxInflatedBytes);
  const pdf = await getDocumentProxy(bytes);
  try {
    const totalPages = pdf.numPages;
    const pageCap = Math.min(totalPages, options.maxPages ?? limits.defaultMaxPages);
    const pages: PdfPage[] = [];
    const budget = { left: limits.maxTextChars, limit: limits.maxTextChars };
    const stopAt = Date.now() + limits.maxReadMs;
    // At least one page is read, however slow: a document that gives nothing is no answer.
    for (let pageNumber = 1; pageNumber <= pageCap; pageNumber += 1) {
      if (pageNumber > 1 && Date.now() >= stopAt) break;
      pages.push({ pageNumber, markdown: tidy(await pageText(pdf, pageNumber, budget)) });
    }
    const numPages = pages.length;
    let markdown = '';
    for (const page of pages) {
      if (page.markdown === '') continue;
      if (markdown !== '') markdown += options.pageMarkers === true ? pageMarker(page.pageNumber) : '\n\n';
      markdown += page.markdown;
    }
    const info = (await getMeta(pdf).catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : undefined;
    return {
      markdown,
      numPages,
      totalPages,
      ...(options.pages === true ? { pages } : {}),
      ...(title === undefined ? {} : { title }),
    };
  } finally {
    await pdf.cleanup();
  }
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * One page's text runs joined as unpdf's extractText joins them: a newline where a line ends. The
 * text is streamed, and counted against the document's `budget` as it comes: a page that goes past
 * it is cancelled, which stops pdf.js reading (and inflating) the rest of its content.
 */
async function pageText(
  pdf: PdfDocument,
  pageNumber: number,
  budget: { left: number; limit: number },
): Promise<string> {
  const page = await pdf.getPage(pageNumber);
  const reader = page.streamTextContent().getReader();
  try {
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const item of value.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      if (text.length > budget.left) {
        await reader.cancel(new Error('text limit'));
        throw new DerivationLimit(
          `The PDF holds more than ${budget.limit} characters of text, the most one document may`,
        );
      }
    }
    budget.left -= text.length;
    return text;
  } finally {
    page.cleanup();
  }
}

const tidy = (text: string) =>
  text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
