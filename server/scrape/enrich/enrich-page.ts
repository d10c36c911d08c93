import { asksInjectionScreen } from '../../../shared/api/v2/prompt-injection-check';
import type { RedactionSettings } from '../../../shared/api/v2/redact-pii';
import { LOADING_PLACEHOLDER_WARNING } from '../capture';
import type { PageDerivation } from '../derive';
import type { ScrapeDocument } from '../types';
import { type LlmFormatDeps, llmFormats } from './formats/llm-formats';
import { readFormats } from './formats/read-formats';
import type { RequestSchemas } from './formats/request-schemas';
import { type CaptureToDocument, type DocumentPlan, pageDocument } from './page-document';
import { redactDocument } from './redact/redact-document';
import { screenForInjection } from './screen/screen-for-injection';

/** What the enrich stage reads of the scrape plan (scrape-plan.ts). */
export interface EnrichPlan extends DocumentPlan {
  readonly teamId: string;
  /** Formats the request asks for that this server does not make. */
  readonly unsupported: readonly string[];
  /** json, summary, highlights, question… read the page's Markdown. */
  readonly needsText: boolean;
  readonly schemas: RequestSchemas;
  /** redactPII: what is kept and returned is the redacted document. */
  readonly redaction: RedactionSettings | undefined;
}

/** What the enrich stage reads of the capture stage's outcome. */
export interface CaptureToEnrich extends CaptureToDocument {
  /** The capture is a page that had not loaded yet (capture/loading-placeholder.ts). */
  readonly placeholder: boolean;
  readonly profileWarning: string | undefined;
}

/**
 * The enrich stage: the formats that read the page's Markdown or ask a model, those read from the
 * page's HTML, the warnings, and the document they make, redacted when the caller asked for it.
 */
export async function enrichPage(
  plan: EnrichPlan,
  captured: CaptureToEnrich,
  derived: PageDerivation,
  deps: LlmFormatDeps,
): Promise<ScrapeDocument> {
  const { request } = plan;
  // Before any model format reads the page: a detection fails the scrape here.
  const screenWarnings = asksInjectionScreen(request)
    ? await screenForInjection(deps, { request, capture: captured.capture, markdown: derived.markdown ?? '' })
    : [];
  const { warnings, ...computed } = plan.needsText
    ? await llmFormats(deps, {
        request,
        capture: captured.capture,
        markdown: derived.markdown ?? '',
        metadata: derived.metadata,
        schemas: plan.schemas,
        teamId: plan.teamId,
        facts: derived.facts,
        reads: derived.reads,
      })
    : { warnings: [] };
  const { warnings: readWarnings, ...read } = readFormats(request.formats, derived.reads);
  warnings.unshift(...screenWarnings);
  warnings.push(...readWarnings);
  if (plan.unsupported.length > 0) {
    warnings.unshift(`These formats are not available yet and were skipped: ${plan.unsupported.join(', ')}.`);
  }
  if (captured.placeholder) warnings.push(LOADING_PLACEHOLDER_WARNING);
  if (captured.profileWarning !== undefined) warnings.push(captured.profileWarning);
  const document = pageDocument(plan, captured, derived, computed, read, warnings);
  if (plan.redaction === undefined) return document;
  const withoutModel = request.zeroDataRetention === true;
  return redactDocument(document, plan.redaction, {
    llm: withoutModel ? undefined : deps.llm,
    noModelReason: withoutModel ? 'zeroDataRetention' : 'unconfigured',
  });
}
