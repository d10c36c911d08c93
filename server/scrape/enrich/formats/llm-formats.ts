import type { ScrapeRequestV2 } from '../../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../../shared/protocol/messages';
import { errors } from '../../../platform/errors';
import { LlmError, type LlmProvider } from '../../../platform/llm';
import type { Log } from '../../../platform/log';
import type { ChangeSnapshotStore } from '../../../platform/store';
import type { MenuProfile, ProductProfile } from '../../../../shared/api/responses/page-profiles';
import { type ChangeTracking, changeTrackingFormat } from './change-tracking-format';
import { type PageFacts, pageFacts, type PageReads } from '../../derive';
import type { KnowledgeGraph } from '../../../../shared/api/responses/knowledge-graph';
import { highlightsFormat } from './highlights-format';
import { knowledgeGraphFormat } from './knowledge-graph-format';
import { jsonFormat } from './json-format';
import { menuFormat } from './menu-format';
import { productFormat } from './product-format';
import { directQuoteFormat, questionFormat } from './question-format';
import type { RequestSchemas } from './request-schemas';
import { summaryFormat } from './summary-format';
import { LLM_FORMATS } from '../../types';

export interface LlmFormatDeps {
  llm?: LlmProvider | undefined;
  changeSnapshots?: ChangeSnapshotStore | undefined;
  log: Log;
}

export interface LlmFormats {
  json?: unknown;
  summary?: string;
  changeTracking?: ChangeTracking;
  highlights?: string;
  /** The question format, or the query format. */
  answer?: string;
  product?: ProductProfile;
  menu?: MenuProfile;
  knowledgeGraph?: KnowledgeGraph;
  warnings: string[];
}

/**
 * Computes the formats that read the page's text from a capture and its Markdown. An LLM that
 * fails the json format fails the scrape with a clear 500 (there is no honest partial answer);
 * summary and question fall back to extraction, product and menu to nothing, with a warning.
 */
export async function llmFormats(
  { llm: configuredLlm, changeSnapshots, log }: LlmFormatDeps,
  {
    request,
    capture,
    markdown,
    metadata,
    schemas,
    teamId,
    facts: givenFacts,
    reads,
  }: {
    request: ScrapeRequestV2;
    capture: PageCapture;
    markdown: string;
    metadata: Record<string, string | string[]>;
    schemas: RequestSchemas;
    teamId: string;
    /** Read by the derivation worker when the formats need them. */
    facts?: PageFacts | undefined;
    /** What the derivation worker read of the page for product and menu. */
    reads?: PageReads | undefined;
  },
): Promise<LlmFormats> {
  const out: LlmFormats = { warnings: [] };
  // Zero data retention: the page is not handed to a model that may keep it.
  const llm = request.zeroDataRetention === true ? undefined : configuredLlm;
  // highlights and directQuote never ask a model: nothing to say about them.
  const asksModel = request.formats.some(
    (format) =>
      LLM_FORMATS.has(format.type) &&
      format.type !== 'highlights' &&
      !(format.type === 'query' && format.mode === 'directQuote'),
  );
  if (llm !== configuredLlm && asksModel) {
    out.warnings.push(
      'With zeroDataRetention the page is not sent to the LLM; the formats that would ask it used the built-in methods.',
    );
  }
  let read: PageFacts | undefined = givenFacts;
  const facts = () => (read ??= pageFacts(capture, metadata));
  const note = (warning: string | undefined) => warning !== undefined && out.warnings.push(warning);
  const run = async <T>(work: () => Promise<T>) => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof LlmError) throw errors.llmFailed(err.message);
      throw err;
    }
  };

  for (const format of request.formats) {
    if (format.type === 'json') {
      const result = await run(() =>
        jsonFormat({ capture, markdown, metadata, schema: schemas.json, prompt: format.prompt, llm, facts }),
      );
      out.json = result.value;
      note(result.warning);
    } else if (format.type === 'highlights') {
      const result = highlightsFormat(markdown, format.query);
      out.highlights = result.value ?? '';
      note(result.warning);
    } else if (format.type === 'question' || (format.type === 'query' && format.mode === 'freeform')) {
      const result = await questionFormat(
        markdown,
        format.type === 'question' ? format.question : format.prompt,
        llm,
      );
      out.answer = result.value ?? '';
      note(result.warning);
    } else if (format.type === 'query') {
      const result = directQuoteFormat(markdown, format.prompt);
      out.answer = result.value ?? '';
      note(result.warning);
    } else if (format.type === 'product') {
      const result = await productFormat({ markdown, pageUrl: capture.url, llm, published: reads?.product });
      if (result.value !== undefined) out.product = result.value;
      note(result.warning);
    } else if (format.type === 'menu') {
      const result = await menuFormat({ markdown, pageUrl: capture.url, llm, published: reads?.menu });
      if (result.value !== undefined) out.menu = result.value;
      note(result.warning);
    } else if (format.type === 'knowledgeGraph') {
      const result = await knowledgeGraphFormat({
        structured: reads?.structured,
        markdown,
        entityTypes: format.entityTypes,
        prompt: format.prompt,
        llm,
      });
      out.knowledgeGraph = result.value;
      note(result.warning);
    } else if (format.type === 'summary') {
      const result = await summaryFormat(markdown, llm);
      out.summary = result.value ?? '';
      note(result.warning);
    } else if (format.type === 'changeTracking') {
      if (changeSnapshots === undefined) {
        note('Change tracking needs the change history store, which this server was started without.');
        continue;
      }
      let values: unknown;
      if (format.modes.includes('json')) {
        const result = await run(() =>
          jsonFormat({
            capture,
            markdown,
            metadata,
            schema: schemas.changeTracking,
            prompt: format.prompt,
            llm,
            facts,
          }),
        );
        values = result.value;
        note(result.warning);
      }
      const result = await changeTrackingFormat({
        snapshots: changeSnapshots,
        log,
        teamId,
        url: request.url.raw,
        tag: format.tag,
        modes: format.modes,
        markdown,
        statusCode: capture.statusCode,
        json: values,
        keep: request.zeroDataRetention !== true,
      });
      if (result.value !== undefined) out.changeTracking = result.value;
      note(result.warning);
    }
  }
  return out;
}
