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
export type { Scraper, ScrapeAdmission, ScrapeContext } from './types';
export type { PageChallenge, PageChallengeHandler, TaskChallengeSignals } from './types';
export { createTaskChallengeSignals } from './capture';
export type { ScrapeDocument, ScrapeMetadata } from './types';
export type { ChangeTracking, GitDiff } from './types';
export { scrapeV1 } from './scrape-v1';
export { type ScrapeDocumentV1, withJsonKey } from './v1-json-key';

// admit/: what a page costs and what it holds while it runs.
export { BASE_CREDITS, scrapeCredits } from './admit';
export { checkUrl } from './admit';
export { type BrowserSlots, HTTP_PAGES_IN_FLIGHT, createBrowserSlots } from './admit';

// capture/: the parts the composition root builds the scraper from, and browser profiles.
export { createCachedCapture } from './capture';
export { countCacheLookups } from './capture';
export { createHttpFastPath } from './capture';
export { fastPathEligible } from './capture';
export { markHttpCaptures } from './capture';
export { type BrowserProfileUse, openBrowserProfile } from './capture';
export { taskErrorToApiError } from './capture';
export { worthAnotherBrowser } from './capture';
export { type SiteFileReader, type SiteFiles, createSiteFiles } from './capture';

// derive/: the worker pools and the limits of what they derive.
export { createDerivationPool } from './derive';
export { deriveByKind } from './derive';
export type { PageDerivation, PageDeriveOptions } from './derive';
export { DerivationLimit, derivationErrors } from './derive';
export { DEFAULT_SCRAPE_TIMEOUT_MS, runWithDeadline } from './derive';
export { CONTINUE_RETRY_AFTER_SECONDS, CONTINUED_WORK_CEILING_MS, WorkContinues } from './derive';
export { DEFAULT_PDF_LIMITS } from './derive';
export { checkPdfInflation } from './derive';

// enrich/: text tools other products reuse.
export { compareJson } from './enrich';
export { gitDiff } from './enrich';
export { splitSentences } from './enrich';
export { redactText } from './enrich';

// emit/: the ports of the indexes, and the interact options of API scrapes.
export type { MapIndexSink, PageForMapIndex, PageForSearchIndex, SearchIndexSink } from './emit';
export { type InteractOptions, type InteractOptionsMemory, createInteractOptionsMemory } from './emit';
