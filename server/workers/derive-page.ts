import { type DeriveOptions, type DerivedFormats, deriveFormats } from '../../shared/formats/derive-formats';
import type { PageCapture } from '../../shared/protocol/messages';
import { derivePdf } from '../scrape/pdf/derive-pdf';

export interface PageDeriveOptions extends DeriveOptions {
  /** Parse a PDF document to Markdown (v2 `parsers: ["pdf"]`, v1 `parsePDF`). */
  parsePdf: boolean;
}

export interface PageDerivation extends DerivedFormats {
  /** Pages of a parsed PDF; 0 for pages and unparsed PDFs. */
  pdfPages: number;
}

/**
 * Everything the server makes from a capture without a model: the basic formats of a page, or a
 * PDF's text. This is the unit of work of the derivation pool, so it must stay free of anything
 * that cannot cross a thread (no closures, no class instances in or out).
 */
export async function derivePage(capture: PageCapture, options: PageDeriveOptions): Promise<PageDerivation> {
  if (capture.pdfBase64 !== undefined) return derivePdf(capture.pdfBase64, options);
  return { ...deriveFormats(capture, options), pdfPages: 0 };
}
