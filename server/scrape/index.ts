/**
 * The scrape wing: one page from a request to a document. `createScraper` runs the stages, each a
 * folder of its own: admit/ (team slot, credits, selectors, URL policy, job browser slots), capture/
 * (the page in hand, the cache, the HTTP fast path, a browser), derive/ (formats from the capture,
 * in worker threads), enrich/ (formats from the text or a model, warnings, redaction) and emit/
 * (indexes, kept results, interact options, metrics); types/ is the floor they share. This file is
 * the wing's face: what the composition root and the wings above use. Nothing inside the wing
 * imports it.
 */

// The runner and what every caller hands it.
export { createScraper } from './create-scraper';
export type { ScraperParts } from './scraper-parts';
export type { ScrapePlan } from './scrape-plan';
export type { Scraper, ScrapeAdmission, ScrapeContext } from './types/scraper';
export type { ScrapeDocument, ScrapeMetadata } from './types/scrape-document';
export type { ChangeTracking, GitDiff } from './types/change-tracking';
export { scrapeV1 } from './scrape-v1';
export { type ScrapeDocumentV1, withJsonKey } from './v1-json-key';

// admit/: what a page costs and what it holds while it runs.
export { BASE_CREDITS, scrapeCredits } from './admit/scrape-credits';
export { type BrowserSlots, HTTP_PAGES_IN_FLIGHT, createBrowserSlots } from './admit/browser-slots';

// capture/: the parts the composition root builds the scraper from, and browser profiles.
export { createCachedCapture } from './capture/cached-capture';
export { countCacheLookups } from './capture/count-cache-lookups';
export { createHttpFastPath } from './capture/fast-path/create-http-fast-path';
export { fastPathEligible } from './capture/fast-path/fast-path-eligible';
export { markHttpCaptures } from './capture/fast-path/mark-http-captures';
export { type BrowserProfileUse, openBrowserProfile } from './capture/browser-profile-use';
export { taskErrorToApiError } from './capture/task-error-to-api-error';

// derive/: the worker pools and the limits of what they derive.
export { createDerivationPool } from './derive/create-derivation-pool';
export { deriveByKind } from './derive/derive-by-kind';
export type { PageDerivation, PageDeriveOptions } from './derive/derive-page';
export { DerivationLimit, derivationErrors } from './derive/derivation-errors';
export { DEFAULT_SCRAPE_TIMEOUT_MS, runWithDeadline } from './derive/scrape-deadline';
export { DEFAULT_PDF_LIMITS } from './derive/pdf/pdf-limits';
export { checkPdfInflation } from './derive/pdf/check-pdf-inflation';

// enrich/: text tools other products reuse.
export { compareJson } from './enrich/formats/change-tracking-format';
export { gitDiff } from './enrich/formats/git-diff';
export { splitSentences } from './enrich/formats/extractive-summary';
export { redactText } from './enrich/redact/redact-text';

// emit/: the ports of the indexes, and the interact options of API scrapes.
export type { MapIndexSink, PageForMapIndex, PageForSearchIndex, SearchIndexSink } from './emit/page-indexes';
export {
  type InteractOptions,
  type InteractOptionsMemory,
  createInteractOptionsMemory,
} from './emit/interact-options';
