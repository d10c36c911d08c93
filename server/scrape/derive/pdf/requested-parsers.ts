import type { ParsersV2 } from '../../../../shared/api/v2/parsers';

/** How a PDF's pages are read: the text layer only, OCR where a page has none, or OCR of every page. */
export type PdfMode = 'fast' | 'auto' | 'ocr';

/** How to parse a PDF, as the worker takes it: plain values only, so it crosses threads. */
export interface PdfParseOptions {
  /** Parse at most this many pages, from the first (and bill only those). */
  maxPages?: number;
  /** Also answer with the Markdown of each page (`document.pages`). */
  pages?: boolean;
  /** Mark where each page starts in `markdown`. */
  pageMarkers?: boolean;
  /** Which pages are OCRed; "auto" when absent, as Firecrawl's default. */
  mode?: PdfMode;
  /** Also answer with each page's typed layout blocks (`document.blocks`). */
  blocks?: boolean;
}

export interface RequestedParsers {
  /** How to parse PDFs; undefined when the request asks for the PDF's bytes instead. */
  pdf: PdfParseOptions | undefined;
  /** The image parser (OCR of an image URL or upload) was asked for. */
  image: boolean;
}

/** What a request's `parsers` ask for, strings and objects alike (`"pdf"` is `{ type: "pdf" }`). */
export function requestedParsers(parsers: ParsersV2): RequestedParsers {
  let pdf: PdfParseOptions | undefined;
  let image = false;
  for (const parser of parsers) {
    if (parser === 'image' || (typeof parser === 'object' && parser.type === 'image')) image = true;
    else if (parser === 'pdf') pdf = {};
    else if (parser.type === 'pdf') {
      pdf = {
        ...(parser.maxPages === undefined ? {} : { maxPages: parser.maxPages }),
        // pageMarkdown is the old name of pages, read only where pages is absent.
        ...((parser.pages ?? parser.pageMarkdown) === true ? { pages: true } : {}),
        ...(parser.pageMarkers === true ? { pageMarkers: true } : {}),
        ...(parser.mode === undefined ? {} : { mode: parser.mode }),
        ...(parser.blocks === true ? { blocks: true } : {}),
      };
    }
  }
  return { pdf, image };
}
