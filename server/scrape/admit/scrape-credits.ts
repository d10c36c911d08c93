import type { FormatV2 } from '../../../shared/api/v2/formats';
import type { BrowserClass } from '../../../shared/protocol/messages';

/**
 * A page costs 1 credit; one with a format that reads the page with a model costs 5 (docs/wire-contract.md §9:
 * json and json change tracking; Tabhive prices question, query, product and menu the same way).
 */
export const BASE_CREDITS = 1;
export const JSON_CREDITS = 5;
/** Added when a stealth browser did the work (`metadata.proxyUsed: "stealth"`). */
export const STEALTH_SURCHARGE_CREDITS = 4;
/** Added for prompt-injection screening (`checkPromptInjection`), as Firecrawl charges it. */
export const INJECTION_SCREEN_CREDITS = 4;

/** Whether the formats include LLM-style extraction, which Firecrawl bills at the json rate. */
export function extractsJson(formats: readonly FormatV2[]): boolean {
  return formats.some(
    (format) => format.type === 'json' || (format.type === 'changeTracking' && format.modes.includes('json')),
  );
}

/**
 * Whether the formats include one priced as model extraction: json (and json change tracking), as
 * in Firecrawl, and the formats Tabhive answers the same way (with the LLM when one is configured,
 * from the page's structured data or passages otherwise, as json does): question, query in
 * freeform mode, product, menu and knowledgeGraph. The price does not depend on whether a model ran, so a caller
 * can budget a request before sending it.
 */
export function extractsWithModel(formats: readonly FormatV2[]): boolean {
  return (
    extractsJson(formats) ||
    formats.some(
      (format) =>
        format.type === 'question' ||
        (format.type === 'query' && format.mode === 'freeform') ||
        format.type === 'product' ||
        format.type === 'menu' ||
        format.type === 'knowledgeGraph',
    )
  );
}

/**
 * The credits of one successful page, the single place of the billing rule (docs/wire-contract.md §9): 1, or 5
 * with model extraction (extractsWithModel, counted once however many such formats); +4 on a
 * stealth browser; +4 with prompt-injection screening; + (pages − 1) for a parsed multi-page PDF, counting only the pages parsed
 * (`maxPages`). Summary, highlights, query's directQuote, attributes, audio and video read the
 * page without a model's price and cost nothing extra (summary as in Firecrawl).
 */
export function scrapeCredits({
  formats = [],
  proxyUsed = 'basic',
  pdfPages = 0,
  screensInjection = false,
}: {
  formats?: readonly FormatV2[];
  proxyUsed?: BrowserClass;
  /** The scrape asked for prompt-injection screening (asksInjectionScreen). */
  screensInjection?: boolean;
  /** Pages of a PDF that was parsed; 0 for anything else. */
  pdfPages?: number;
}): number {
  return (
    (extractsWithModel(formats) ? JSON_CREDITS : BASE_CREDITS) +
    (proxyUsed === 'stealth' ? STEALTH_SURCHARGE_CREDITS : 0) +
    (screensInjection ? INJECTION_SCREEN_CREDITS : 0) +
    Math.max(0, pdfPages - 1)
  );
}
