import { TabhiveError } from '../../platform/errors';
import { JobAborted, JobFailure, type JobRun } from '../jobs';
import {
  LlmError,
  type LlmProvider,
  type GuardedSchema,
  SchemaRejectedError,
  guardSchema,
} from '../../platform/llm';
import type { Log } from '../../platform/log';
import type { Mapper } from '../map';
import type { Scraper } from '../../scrape/types';
import type { SearchService } from '../search';
import { type JsonFormat, type PageOutcome, extractFromPage } from './extract-from-page';
import { EXTRACT_JOB_TIMEOUT_MS, EXTRACT_PAGE_CONCURRENCY, MAX_EXTRACT_OUTPUT_CHARS } from './extract-limits';
import type { ExtractOutput, ExtractSpec } from './extract-spec';
import { inlineLocalRefs } from './inline-refs';
import { mergeExtractions } from './merge-extractions';
import { MergeTooLargeError, mergeWithLlm } from './merge-with-llm';
import { missingRequired } from './missing-required';
import { type PageExtraction, isEmptyValue } from './page-extraction';
import { pageWarnings } from './page-warnings';
import { planPages } from './plan-pages';
import { relaxSchema } from './relax-schema';
import { isObject, resolveSchema, schemaKind } from './schema-node';
import { attributeSources } from './value-sources';

export interface ExtractRunDeps {
  scraper: Scraper;
  mapper?: Mapper | undefined;
  search?: SearchService | undefined;
  llm?: LlmProvider | undefined;
  log: Log;
}

const NO_LLM_PROMPT_ONLY =
  'No LLM is configured (LLM_BASE_URL), so the prompt was not used: data holds the structured data ' +
  'the pages publish (JSON-LD, microdata, OpenGraph, title and description), merged across pages. ' +
  "Give a schema to have its fields filled from the pages' structured data and labelled values.";
const NO_LLM_OPEN_SCHEMA =
  'The schema names no fields: data holds the structured data the pages publish (JSON-LD, microdata, ' +
  'OpenGraph, title and description), merged across pages.';
const NO_LLM_WITH_SCHEMA =
  "No LLM is configured (LLM_BASE_URL): the schema was filled from the pages' structured data " +
  '(JSON-LD, microdata), labelled values and metadata; the prompt was not used.';

/** The schemas one job works with, all derived from the caller's (which passed guardSchema already). */
interface JobSchemas {
  /** Walked by the merge and the completeness check: references inlined when they fit. */
  shape: unknown;
  /** What each page's extraction, and a model's merge, must satisfy: no completeness demands. */
  perPage: GuardedSchema;
  /** The caller's schema, for the final check. */
  full: GuardedSchema;
}

function jobSchemas(schema: unknown): JobSchemas {
  const full = guardSchema(schema);
  const inlined = inlineLocalRefs(full.schema);
  if (inlined !== undefined) {
    try {
      return { shape: inlined, perPage: guardSchema(relaxSchema(inlined)), full };
    } catch (err) {
      if (!(err instanceof SchemaRejectedError)) throw err;
    }
  }
  return { shape: full.schema, perPage: guardSchema(relaxSchema(full.schema)), full };
}

/** The per-page prompt: the caller's instructions, and that this page is one source of several. */
function pagePrompt(spec: ExtractSpec): string | undefined {
  if (spec.prompt === undefined && spec.systemPrompt === undefined) return undefined;
  return [
    spec.systemPrompt,
    'This page is one of several sources of the answer: give only what this page states.',
    spec.prompt === undefined ? undefined : `What to extract: ${spec.prompt}`,
  ]
    .filter((part) => part !== undefined)
    .join('\n\n');
}

/** Schema errors other than missing required fields (those get their own warning). */
function shapeProblems(full: GuardedSchema, data: unknown): string | undefined {
  if (full.validate(data)) return undefined;
  const problems = (full.validate.errors ?? [])
    .filter((error) => error.keyword !== 'required')
    .slice(0, 10)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
  return problems.length === 0 ? undefined : problems.join('; ');
}

/**
 * One extract job, start to answer: the pages planned (URLs, wildcard site maps, web search),
 * each scraped with the json format (the model per page, or the built-in filling without one),
 * then merged into one value (one model call, or the built-in merge), with sources and warnings.
 * `onCredits` hears the running total of credits booked, for the job's status. It fails with
 * JobFailure when it cannot answer (no page to read, none readable, credits spent before any).
 */
export async function runExtract(
  spec: ExtractSpec,
  { teamId, signal, onCredits }: JobRun,
  deps: ExtractRunDeps,
): Promise<{ output: ExtractOutput; creditsUsed: number }> {
  const { llm, log } = deps;
  const deadline = Date.now() + EXTRACT_JOB_TIMEOUT_MS;
  const schemas = spec.schema === undefined ? undefined : jobSchemas(spec.schema);
  let credits = 0;
  const book = (amount: number) => {
    credits += amount;
    onCredits(credits);
  };

  let plan;
  try {
    plan = await planPages(spec, { teamId, mapper: deps.mapper, search: deps.search, deadline, signal });
  } catch (err) {
    if (err instanceof TabhiveError && err.kind === 'insufficient-credits') throw new JobFailure(err.message);
    throw err;
  }
  book(plan.credits);
  if (plan.urls.length === 0) {
    throw new JobFailure(['No page to extract from.', ...plan.warnings].join(' '));
  }

  const prompt = llm === undefined ? undefined : pagePrompt(spec);
  const format: JsonFormat = {
    type: 'json',
    ...(schemas === undefined ? {} : { schema: schemas.perPage.schema as JsonFormat['schema'] }),
    ...(prompt === undefined ? {} : { prompt }),
  };
  const context = {
    scraper: deps.scraper,
    teamId,
    scrapeOptions: spec.scrapeOptions,
    format,
    deadline,
    signal,
    log,
  };
  const outcomes: PageOutcome[] = [];
  let next = 0;
  let outOfCredits = false;
  const worker = async () => {
    for (let index = next++; index < plan.urls.length; index = next++) {
      const url = plan.urls[index] as string;
      const outcome: PageOutcome = outOfCredits
        ? { kind: 'no-credits', url }
        : await extractFromPage(url, context);
      outcomes[index] = outcome;
      if (outcome.kind === 'no-credits') outOfCredits = true;
      if ('credits' in outcome) book(outcome.credits);
    }
  };
  await Promise.all(Array.from({ length: Math.min(EXTRACT_PAGE_CONCURRENCY, plan.urls.length) }, worker));
  if (signal.aborted) throw new JobAborted('the extract job was stopped');

  const extracted: PageExtraction[] = outcomes.flatMap((outcome) =>
    outcome.kind === 'extracted' ? [{ url: outcome.url, value: outcome.value }] : [],
  );
  const warnings = [...spec.warnings, ...plan.warnings, ...pageWarnings(outcomes)];
  if (extracted.length === 0) {
    throw new JobFailure(
      [
        `None of the ${plan.urls.length} page(s) could be read.`,
        ...plan.warnings,
        ...pageWarnings(outcomes),
      ].join(' '),
    );
  }

  const empty = schemaKind(resolveSchema(schemas?.shape, schemas?.shape)) === 'array' ? [] : {};
  let data: unknown;
  let sources: Record<string, string[]>;
  if (llm === undefined) {
    // The json format fills no schema that names nothing (`{}`, what the JS SDK sends for a zod
    // schema it cannot convert): it answers the pages' published data, as for a prompt alone.
    const open =
      schemas === undefined || (isObject(schemas.shape) && Object.keys(schemas.shape).length === 0);
    if (open) warnings.push(spec.prompt === undefined ? NO_LLM_OPEN_SCHEMA : NO_LLM_PROMPT_ONLY);
    else if (spec.prompt !== undefined) warnings.push(NO_LLM_WITH_SCHEMA);
    const merged = mergeExtractions(extracted, schemas?.shape);
    data = merged.value ?? empty;
    sources = merged.sources;
  } else {
    const stating = extracted.filter((page) => !isEmptyValue(page.value));
    let merged: unknown = stating[0]?.value ?? empty;
    if (stating.length > 1) {
      try {
        merged = await mergeWithLlm(llm, {
          pages: stating,
          schema: schemas?.perPage,
          prompt: spec.prompt,
          systemPrompt: spec.systemPrompt,
        });
      } catch (err) {
        if (!(err instanceof LlmError) && !(err instanceof MergeTooLargeError)) throw err;
        warnings.push(`The LLM could not merge the pages' data (${err.message}); the built-in merge did.`);
        merged = mergeExtractions(stating, schemas?.shape).value ?? empty;
      }
    }
    const attributed = attributeSources(merged, extracted);
    data = attributed.value;
    sources = attributed.sources;
    if (attributed.invented.length > 0) {
      warnings.push(
        `The merge answered values no page stated; they were left out: ${attributed.invented.slice(0, 20).join(', ')}.`,
      );
    }
  }

  if (schemas !== undefined) {
    const missing = missingRequired(schemas.shape, data);
    if (missing.length > 0) {
      warnings.push(
        `These required fields were not found on any page and are left empty: ${missing.slice(0, 50).join(', ')}.`,
      );
    }
    const problems = shapeProblems(schemas.full, data);
    if (problems !== undefined)
      warnings.push(`The merged data does not fully match the schema (${problems}).`);
  }

  const output: ExtractOutput = { data, sources, warnings };
  if (JSON.stringify(output).length > MAX_EXTRACT_OUTPUT_CHARS) {
    throw new JobFailure(
      `The extracted data is larger than ${MAX_EXTRACT_OUTPUT_CHARS} characters; ask for less (fewer pages or a narrower schema).`,
    );
  }
  return { output, creditsUsed: credits };
}
