/**
 * Derive: formats made from a capture in worker threads (HTML, Markdown, links, PDF, reads), with
 * memoised derivations of cached captures.
 */
export { createDerivationPool } from './create-derivation-pool';
export { DerivationLimit, derivationErrors } from './derivation-errors';
export { createDerivationMemo } from './derivation-memo';
export type { DerivationMemo } from './derivation-memo';
export { deriveByKind } from './derive-by-kind';
export { deriveCapture } from './derive-capture';
export type { DerivePlan, DerivedPage } from './derive-capture';
export type { FetchedPage, FetchedPageOutcome } from './derive-fetched-page';
export { derivePage } from './derive-page';
export type { PageDerivation, PageDeriveOptions } from './derive-page';
export { attributesWarnings } from './formats/attributes-format';
export type { AttributeValues } from './formats/attributes-format';
export { fillSchema } from './formats/fill-schema';
export type { PageFacts } from './formats/fill-schema';
export { chooseMedia, noMediaWarning } from './formats/media-formats';
export { pageFacts } from './formats/page-facts';
export { pageReadsRequest } from './formats/page-reads';
export type { PageReads } from './formats/page-reads';
export type { JsonObject } from './formats/structured-data';
export { checkPdfInflation } from './pdf/check-pdf-inflation';
export { DEFAULT_PDF_LIMITS } from './pdf/pdf-limits';
export { requestedParsers } from './pdf/requested-parsers';
export { DEFAULT_SCRAPE_TIMEOUT_MS, runUnderScrapeDeadline, runWithDeadline } from './scrape-deadline';
