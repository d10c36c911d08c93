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
export type { PageReads, StructuredItems } from './formats/page-reads';
export type { JsonObject } from './formats/structured-data';
export { checkPdfInflation } from './pdf/check-pdf-inflation';
export { DEFAULT_PDF_LIMITS } from './pdf/pdf-limits';
export { DEFAULT_OCR_LIMITS } from './ocr/ocr-limits';
export type { OcrLimits } from './ocr/ocr-limits';
export { createOcrReader } from './ocr/ocr-reader';
export type { OcrReader, OcrReading } from './ocr/ocr-reader';
export { OCR_IMAGE_TYPES, readImageFormat } from './ocr/image-format';
export type { ImageFormat } from './ocr/image-format';
export { typeParagraphs } from './ocr/layout-blocks';
export { requestedParsers } from './pdf/requested-parsers';
export { DEFAULT_SCRAPE_TIMEOUT_MS, runUnderScrapeDeadline, runWithDeadline } from './scrape-deadline';
export { CONTINUE_RETRY_AFTER_SECONDS, CONTINUED_WORK_CEILING_MS, WorkContinues } from './work-continues';
