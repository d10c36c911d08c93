import type { PageCapture } from '../../../../shared/protocol/messages';
import {
  askForJson,
  type LlmProvider,
  describeSchemaErrors,
  type GuardedSchema,
} from '../../../platform/llm';
import { fillSchema, type PageFacts, pageFacts, type JsonObject } from '../../derive';

export interface FormatOutcome<T> {
  value?: T;
  warning?: string;
}

/** The page's own structured data, when there is no schema to fill and no model to ask. */
function publishedData(facts: PageFacts): JsonObject {
  const openGraph = Object.fromEntries(
    Object.entries(facts.metadata).filter(([key]) => /^(og|twitter):/.test(key)),
  );
  return {
    ...(facts.jsonLd.length > 0 ? { jsonLd: facts.jsonLd } : {}),
    ...(facts.microdata.length > 0 ? { microdata: facts.microdata } : {}),
    ...(Object.keys(openGraph).length > 0 ? { openGraph } : {}),
    ...(typeof facts.metadata.title === 'string' ? { title: facts.metadata.title } : {}),
    ...(typeof facts.metadata.description === 'string' ? { description: facts.metadata.description } : {}),
  };
}

/** `{}` or `{ $schema }` alone, as the JS SDK sends for zod schemas it cannot convert: nothing to fill. */
const allowsAnything = (schema: Record<string, unknown>) => Object.keys(schema).length === 0;

/**
 * Drops top-level properties the schema refuses (a value of the wrong shape found on the page) and
 * reports the properties it requires that the page did not give, instead of making them up.
 */
function validateFilled(value: unknown, schema: GuardedSchema): FormatOutcome<unknown> {
  if (schema.validate(value)) return { value };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const pruned: JsonObject = { ...(value as JsonObject) };
    for (const error of schema.validate.errors ?? []) {
      const top = error.instancePath.split('/')[1];
      if (top !== undefined && top !== '')
        delete pruned[decodeURIComponent(top.replace(/~1/g, '/').replace(/~0/g, '~'))];
    }
    if (schema.validate(pruned)) return { value: pruned };
    return {
      value: pruned,
      warning: `Without an LLM the json format could only fill part of the schema from the page (${describeSchemaErrors(schema.validate)}).`,
    };
  }
  return {
    value,
    warning: `The json found on the page does not match the schema (${describeSchemaErrors(schema.validate)}).`,
  };
}

/**
 * The json format (docs/wire-contract.md §3.3): with an LLM, the model's answer validated against the schema;
 * without one, the schema filled from the page's JSON-LD, microdata, labels and metadata. A prompt
 * without a schema and without an LLM returns the page's published structured data and says so.
 */
export async function jsonFormat({
  capture,
  markdown,
  metadata,
  schema,
  prompt,
  llm,
  facts = () => pageFacts(capture, metadata),
}: {
  capture: PageCapture;
  markdown: string;
  metadata: Record<string, string | string[]>;
  schema: GuardedSchema | undefined;
  prompt: string | undefined;
  llm: LlmProvider | undefined;
  /** The page's facts, when they were read already (in the derivation worker); read here otherwise. */
  facts?: () => PageFacts;
}): Promise<FormatOutcome<unknown>> {
  if (llm !== undefined) return { value: await askForJson(llm, { content: markdown, schema, prompt }) };
  if (schema !== undefined && typeof schema.schema === 'object' && !allowsAnything(schema.schema)) {
    return validateFilled(fillSchema(schema.schema, facts()), schema);
  }
  return {
    value: publishedData(facts()),
    ...(prompt === undefined
      ? {}
      : {
          warning:
            'No LLM is configured (LLM_BASE_URL), so the prompt was not used: json holds the structured data the page publishes (JSON-LD, microdata, OpenGraph). Give a schema to have it filled from the page.',
        }),
  };
}
