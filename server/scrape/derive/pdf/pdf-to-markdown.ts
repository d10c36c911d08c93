import { getDocumentProxy, getMeta } from 'unpdf';
import { DerivationLimit } from '../derivation-errors';
import { type BlockItem, type PageBlocks, typeParagraphs } from '../ocr/layout-blocks';
import { ocrPdfPage } from './ocr-pdf-page';
import { DEFAULT_OCR_LIMITS, type OcrLimits } from '../ocr/ocr-limits';
import { createOcrReader, type OcrReader } from '../ocr/ocr-reader';
import { checkPdfInflation } from './check-pdf-inflation';
import { pageImages } from './page-images';
import { DEFAULT_PDF_LIMITS, type PdfLimits } from './pdf-limits';
import type { PdfParseOptions } from './requested-parsers';
import { type TextRun, textLayerParagraphs } from './text-layer-layout';

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
  /** Every page read, with `blocks`. */
  blocks?: PageBlocks[];
  /** Pages whose text came from OCR. */
  ocrPages: number;
  title?: string;
}

/** Put between pages with `pageMarkers`; N is the page whose text follows (Firecrawl's form). */
const pageMarker = (pageNumber: number) => `\n\n---\n\n<!-- page ${pageNumber} -->\n\n`;

interface ReadPage {
  pageNumber: number;
  markdown: string;
  width: number;
  height: number;
  items?: BlockItem[];
}

/**
 * The text of a PDF as Markdown, page after page, with pdf.js (through unpdf, which bundles a
 * build that needs no canvas or native module). A page's text layer is kept as pdf.js joins its
 * lines, without invented headings; a page OCRed (mode "ocr", or "auto" and no text layer) is
 * written from OCR's paragraphs, typed (layout-blocks.ts). Pages past `maxPages`
 * (`limits.defaultMaxPages` without it) are never read. Pages with no text are left out of
 * `markdown` (so page markers may skip numbers) but kept in `pages`. A document whose streams
 * inflate beyond the limit is refused before pdf.js reads it, and one whose text runs past the
 * limit as soon as it does (DerivationLimit).
 */
export async function pdfToMarkdown(
  bytes: Uint8Array,
  options: PdfParseOptions = {},
  limits: PdfLimits = DEFAULT_PDF_LIMITS,
  ocrLimits: OcrLimits = DEFAULT_OCR_LIMITS,
): Promise<PdfText> {
  await checkPdfInflation(bytes, limits.maxInflatedBytes);
  const pdf = await getDocumentProxy(bytes);
  const mode = options.mode ?? 'auto';
  let ocr: OcrReader | undefined;
  try {
    const totalPages = pdf.numPages;
    const pageCap = Math.min(totalPages, options.maxPages ?? limits.defaultMaxPages);
    const pages: ReadPage[] = [];
    const budget = { left: limits.maxTextChars, limit: limits.maxTextChars };
    const startedAt = Date.now();
    let ocrPages = 0;
    // At least one page is read, however slow: a document that gives nothing is no answer.
    for (let pageNumber = 1; pageNumber <= pageCap; pageNumber += 1) {
      const readMs = ocrPages > 0 ? ocrLimits.maxReadMs : limits.maxReadMs;
      if (pageNumber > 1 && Date.now() - startedAt >= readMs) break;
      const page = await pdf.getPage(pageNumber);
      try {
        const { width, height } = page.getViewport({ scale: 1 });
        const layer = await pageText(page, budget);
        const wantsOcr = mode === 'ocr' || (mode === 'auto' && layer.text.trim() === '');
        if (wantsOcr && ocrPages < ocrLimits.maxPages) {
          const images = await pageImages(page, ocrLimits.maxPixels);
          if (images.length > 0) {
            ocr ??= createOcrReader();
            const { markdown, items } = await ocrPdfPage(ocr, images, pageNumber);
            ocrPages += 1;
            charge(budget, markdown.length);
            pages.push({ pageNumber, markdown, width, height, items });
            continue;
          }
        }
        const markdown = tidy(layer.text);
        const items =
          options.blocks === true
            ? typeParagraphs(textLayerParagraphs(layer.runs, height), 'text-layer', pageNumber).items
            : undefined;
        pages.push({ pageNumber, markdown, width, height, ...(items === undefined ? {} : { items }) });
      } finally {
        page.cleanup();
      }
    }
    const numPages = pages.length;
    let markdown = '';
    const starts = new Map<number, number>();
    for (const page of pages) {
      if (page.markdown === '') continue;
      if (markdown !== '') markdown += options.pageMarkers === true ? pageMarker(page.pageNumber) : '\n\n';
      starts.set(page.pageNumber, markdown.length);
      markdown += page.markdown;
    }
    const info = (await getMeta(pdf).catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : undefined;
    return {
      markdown,
      numPages,
      totalPages,
      ocrPages,
      ...(options.pages === true
        ? { pages: pages.map(({ pageNumber, markdown: text }) => ({ pageNumber, markdown: text })) }
        : {}),
      ...(options.blocks === true ? { blocks: pages.map((page) => pageBlocks(page, markdown, starts)) } : {}),
      ...(title === undefined ? {} : { title }),
    };
  } finally {
    await ocr?.close();
    await pdf.cleanup();
  }
}

/** One page's blocks, each with where its content stands in the document's Markdown when it stands there as it is. */
function pageBlocks(page: ReadPage, markdown: string, starts: ReadonlyMap<number, number>): PageBlocks {
  let cursor = starts.get(page.pageNumber) ?? -1;
  const end = cursor < 0 ? -1 : cursor + page.markdown.length;
  const items = (page.items ?? []).map((item) => {
    if (cursor < 0) return item;
    const at = markdown.indexOf(item.content, cursor);
    if (at < 0 || at + item.content.length > end) return item;
    cursor = at + item.content.length;
    return { ...item, markdownSpan: [at, cursor] as [number, number] };
  });
  return {
    pageNumber: page.pageNumber,
    width: Math.round(page.width * 100) / 100,
    height: Math.round(page.height * 100) / 100,
    status: items.length === 0 ? 'empty' : 'ok',
    items,
  };
}

function charge(budget: { left: number; limit: number }, chars: number): void {
  if (chars > budget.left) {
    throw new DerivationLimit(
      `The PDF holds more than ${budget.limit} characters of text, the most one document may`,
    );
  }
  budget.left -= chars;
}

type PdfPageProxy = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>;

/**
 * One page's text runs joined as unpdf's extractText joins them: a newline where a line ends. The
 * text is streamed, and counted against the document's `budget` as it comes: a page that goes past
 * it is cancelled, which stops pdf.js reading (and inflating) the rest of its content.
 */
async function pageText(
  page: PdfPageProxy,
  budget: { left: number; limit: number },
): Promise<{ text: string; runs: TextRun[] }> {
  const reader = page.streamTextContent().getReader();
  let text = '';
  const runs: TextRun[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const item of value.items) {
      if (!('str' in item)) continue;
      text += item.str + (item.hasEOL ? '\n' : '');
      runs.push({
        str: item.str,
        transform: item.transform as number[],
        width: item.width,
        height: item.height,
        hasEOL: item.hasEOL,
      });
    }
    if (text.length > budget.left) {
      await reader.cancel(new Error('text limit'));
      throw new DerivationLimit(
        `The PDF holds more than ${budget.limit} characters of text, the most one document may`,
      );
    }
  }
  budget.left -= text.length;
  return { text, runs };
}

const tidy = (text: string) =>
  text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
