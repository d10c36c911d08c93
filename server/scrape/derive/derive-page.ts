import {
  type DeriveOptions,
  type DerivedFormats,
  type ParsedCapture,
  deriveFormats,
} from '../../../shared/formats/derive-formats';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { PageFacts } from './formats/fill-schema';
import { pageFacts } from './formats/page-facts';
import { type PageReads, type PageReadsRequest, emptyReads, readPage } from './formats/page-reads';
import type { PageBlocks } from './ocr/layout-blocks';
import { derivePdf } from './pdf/derive-pdf';
import type { PdfPage } from './pdf/pdf-to-markdown';
import type { PdfParseOptions } from './pdf/requested-parsers';

export interface PageDeriveOptions extends DeriveOptions {
  /** Parse a PDF document to Markdown (v2 `parsers: ["pdf"]`, v1 `parsePDF`). */
  parsePdf: boolean;
  /** How to parse it: the v2 PDF parser's `mode`, `maxPages`, `pages`, `blocks` and `pageMarkers`. */
  pdf?: PdfParseOptions;
  /** Also read the page's structured data and labelled values (json without an LLM). */
  pageFacts?: boolean;
  /** What the attributes, audio, video, product and menu formats read from the page's HTML. */
  reads?: PageReadsRequest;
}

export interface PageDerivation extends DerivedFormats {
  /** Pages of a parsed PDF; 0 for pages and unparsed PDFs. */
  pdfPages: number;
  /** Pages the PDF has, when `maxPages` cut it short. */
  pdfTotalPages?: number;
  /** With the PDF parser's `pages`: each page's Markdown. */
  pages?: PdfPage[];
  /** With the PDF parser's `blocks`: each page's typed layout blocks. */
  blocks?: PageBlocks[];
  facts?: PageFacts;
  /** With `reads`: what the page-reading formats found. */
  reads?: PageReads;
}

/**
 * Everything the server makes from a capture without a model: the basic formats of a page, or a
 * PDF's text, and what the page-reading formats find in its HTML. This is the unit of work of the
 * derivation pool, so it must stay free of anything that cannot cross a thread (no closures, no
 * class instances in or out).
 */
export async function derivePage(
  capture: PageCapture,
  options: PageDeriveOptions,
  /** The capture's HTML, when the caller had it parsed already (derive-fetched-page.ts). */
  parsed?: ParsedCapture,
  /** What the caller read from that HTML for `options.reads` before deriving changed it. */
  givenReads?: PageReads,
): Promise<PageDerivation> {
  const readsAsked = options.reads;
  if (capture.pdfBase64 !== undefined) {
    const pdf = await derivePdf(capture.pdfBase64, options);
    return readsAsked === undefined ? pdf : { ...pdf, reads: emptyReads(readsAsked) };
  }
  let reads = givenReads;
  const readRaw =
    readsAsked === undefined || reads !== undefined
      ? undefined
      : (document: Document) => {
          reads = readPage(document, capture.url, readsAsked);
        };
  const derived: PageDerivation = { ...deriveFormats(capture, options, parsed, readRaw), pdfPages: 0 };
  if (readsAsked !== undefined) derived.reads = reads ?? emptyReads(readsAsked);
  return options.pageFacts ? { ...derived, facts: pageFacts(capture, derived.metadata) } : derived;
}
