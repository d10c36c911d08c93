import { randomUUID } from 'node:crypto';
import { asksInjectionScreen } from '../../../shared/api/v2/prompt-injection-check';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { BasicFormat } from '../../../shared/formats/derive-formats';
import type { PageCapture } from '../../../shared/protocol/messages';
import { scrapeCredits } from '../admit';
import type { PageDerivation } from '../derive';
import type { ScrapeDocument } from '../types';
import { browserOutputs, proxyMetadata } from './browser-outputs';
import type { LlmFormats } from './formats/llm-formats';
import type { ReadFormats } from './formats/read-formats';

/** What the document reads of the scrape plan (scrape-plan.ts). */
export interface DocumentPlan {
  readonly request: ScrapeRequestV2;
  readonly scrapeId: string | undefined;
  /** The request's formats, in order. */
  readonly requested: readonly string[];
  /** The basic formats asked for (markdown is derived for more than these). */
  readonly formats: ReadonlySet<BasicFormat>;
}

/** What the document reads of the capture stage's outcome. */
export interface CaptureToDocument {
  readonly capture: PageCapture;
  readonly cacheState?: 'hit' | 'miss' | undefined;
  readonly cachedAt?: string | undefined;
}

/**
 * The Document a scrape answers with (types/scrape-document.ts), from the derived formats, the
 * browser's outputs, the formats made from text and reads, and the warnings; its metadata says
 * where the page came from and what it costs.
 */
export function pageDocument(
  { request, scrapeId, requested, formats }: DocumentPlan,
  { capture, cacheState, cachedAt }: CaptureToDocument,
  derived: PageDerivation,
  computed: Omit<LlmFormats, 'warnings'>,
  read: Omit<ReadFormats, 'warnings'>,
  warnings: readonly string[],
): ScrapeDocument {
  // Facts, links and reads fed other formats and the indexes: they are not formats of their own.
  const {
    metadata,
    markdown,
    pdfPages,
    pdfTotalPages,
    facts: _facts,
    pageLinks: _pageLinks,
    reads: _reads,
    ...content
  } = derived;
  return {
    ...(formats.has('markdown') && markdown !== undefined ? { markdown } : {}),
    ...content,
    ...browserOutputs(capture, request),
    ...(requested.includes('branding') && capture.branding !== undefined
      ? { branding: capture.branding }
      : {}),
    ...computed,
    ...read,
    ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
    metadata: {
      ...metadata,
      sourceURL: request.url.raw,
      url: capture.url,
      statusCode: capture.statusCode,
      ...(capture.contentType === undefined ? {} : { contentType: capture.contentType }),
      ...(capture.error === undefined ? {} : { error: capture.error }),
      scrapeId: scrapeId ?? randomUUID(),
      ...proxyMetadata(capture.browserClass),
      ...(pdfPages > 0 ? { numPages: pdfPages } : {}),
      ...(pdfTotalPages === undefined ? {} : { totalPages: pdfTotalPages }),
      creditsUsed: scrapeCredits({
        formats: request.formats,
        proxyUsed: capture.browserClass,
        pdfPages,
        screensInjection: asksInjectionScreen(request),
      }),
      ...(cacheState === undefined ? {} : { cacheState }),
      ...(cachedAt === undefined ? {} : { cachedAt }),
    },
  };
}
