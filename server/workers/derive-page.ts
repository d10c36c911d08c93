import {
  type DeriveOptions,
  type DerivedFormats,
  type ParsedCapture,
  deriveFormats,
} from '../../shared/formats/derive-formats';
import type { PageCapture } from '../../shared/protocol/messages';
import type { PageFacts } from '../scrape/formats/fill-schema';
import { pageFacts } from '../scrape/formats/page-facts';
import { derivePdf } from '../scrape/pdf/derive-pdf';

export interface PageDeriveOptions extends DeriveOptions {
  /** Parse a PDF document to Markdown (v2 `parsers: ["pdf"]`, v1 `parsePDF`). */
  parsePdf: boolean;
  /** Also read the page's structured data and labelled values (json without an LLM). */
  pageFacts?: boolean;
}

export interface PageDerivation extends DerivedFormats {
  /** Pages of a parsed PDF; 0 for pages and unparsed PDFs. */
  pdfPages: number;
  facts?: PageFacts;
}

/**
 * Everything the server makes from a capture without a model: the basic formats of a page, or a
 * PDF's text. This is the unit of work of the derivation pool, so it must stay free of anything
 * that cannot cross a thread (no closures, no class instances in or out).
 */
export async function derivePage(
  capture: PageCapture,
  options: PageDeriveOptions,
  /** The capture's HTML, when the caller had it parsed already (derive-fetched-page.ts). */
  parsed?: ParsedCapture,
): Promise<PageDerivation> {
  if (capture.pdfBase64 !== undefined) return derivePdf(capture.pdfBase64, options);
  const derived = { ...deriveFormats(capture, options, parsed), pdfPages: 0 };
  return options.pageFacts ? { ...derived, facts: pageFacts(capture, derived.metadata) } : derived;
}
