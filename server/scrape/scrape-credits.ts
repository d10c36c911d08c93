import type { FormatV2 } from '../../shared/api/v2/formats';
import type { BrowserClass } from '../../shared/protocol/messages';

/** A page costs 1 credit; one with a json format (or json change tracking) costs 5 (contract §9). */
export const BASE_CREDITS = 1;
export const JSON_CREDITS = 5;
/** Added when a stealth browser did the work (`metadata.proxyUsed: "stealth"`). */
export const STEALTH_SURCHARGE_CREDITS = 4;

/** Whether the formats include LLM-style extraction, which Firecrawl bills at the json rate. */
export function extractsJson(formats: readonly FormatV2[]): boolean {
  return formats.some(
    (format) => format.type === 'json' || (format.type === 'changeTracking' && format.modes.includes('json')),
  );
}

/**
 * The credits of one successful page, the single place of the billing rule (contract §9): 1, or 5
 * with json extraction; +4 on a stealth browser; + (pages − 1) for a parsed multi-page PDF.
 * Summary costs nothing extra, as in Firecrawl.
 */
export function scrapeCredits({
  formats = [],
  proxyUsed = 'basic',
  pdfPages = 0,
}: {
  formats?: readonly FormatV2[];
  proxyUsed?: BrowserClass;
  /** Pages of a PDF that was parsed; 0 for anything else. */
  pdfPages?: number;
}): number {
  return (
    (extractsJson(formats) ? JSON_CREDITS : BASE_CREDITS) +
    (proxyUsed === 'stealth' ? STEALTH_SURCHARGE_CREDITS : 0) +
    Math.max(0, pdfPages - 1)
  );
}
