import type { ParsersV2 } from '../../../../shared/api/v2/parsers';

/** How to parse a PDF, as the worker takes it: plain values only, so it crosses threads. */
export interface PdfParseOptions {
  /** Parse at most this many pages, from the first (and bill only those). */
  maxPages?: number;
  /** Also answer with the Markdown of each page (`document.pages`). */
  pages?: boolean;
  /** Mark where each page starts in `markdown`. */
  pageMarkers?: boolean;
}

export interface RequestedParsers {
  /** How to parse PDFs; undefined when the request asks for the PDF's bytes instead. */
  pdf: PdfParseOptions | undefined;
  /** The image parser (OCR) was asked for, which this server cannot run. */
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
      };
    }
  }
  return { pdf, image };
}
