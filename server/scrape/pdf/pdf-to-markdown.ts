import { getDocumentProxy, getMeta } from 'unpdf';
import type { PdfParseOptions } from './requested-parsers';

/** The Markdown of one physical page (`document.pages`). */
export interface PdfPage {
  pageNumber: number;
  markdown: string;
}

export interface PdfText {
  markdown: string;
  /** Pages read: all of them, or `maxPages` when the PDF has more. */
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
 * the reading order without invented headings. Pages past `maxPages` are never read. Pages with
 * no text are left out of `markdown` (so page markers may skip numbers) but kept in `pages`.
 */
export async function pdfToMarkdown(bytes: Uint8Array, options: PdfParseOptions = {}): Promise<PdfText> {
  const pdf = await getDocumentProxy(bytes);
  try {
    const totalPages = pdf.numPages;
    const numPages = Math.min(totalPages, options.maxPages ?? totalPages);
    const pages: PdfPage[] = [];
    for (let pageNumber = 1; pageNumber <= numPages; pageNumber += 1) {
      pages.push({ pageNumber, markdown: tidy(await pageText(pdf, pageNumber)) });
    }
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

/** One page's text runs joined as unpdf's extractText joins them: a newline where a line ends. */
async function pageText(pdf: PdfDocument, pageNumber: number): Promise<string> {
  const page = await pdf.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    return content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
  } finally {
    page.cleanup();
  }
}

const tidy = (text: string) =>
  text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
