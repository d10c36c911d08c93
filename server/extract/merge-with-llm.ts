import { type ChatMessage, LlmError, type LlmProvider, MAX_PROMPT_CONTENT_CHARS } from '../llm/llm-provider';
import { describeSchemaErrors, type GuardedSchema } from '../llm/schema-guard';
import type { PageExtraction } from './page-extraction';

const MERGE_SYSTEM_PROMPT =
  'You merge data that was extracted from several web pages into one JSON object. Answer with a ' +
  'single JSON object and nothing else. Use only values that appear in the extracted data; never ' +
  'add facts of your own. Join lists and keep each item once. When pages give different values ' +
  'for a single field, keep the one from the earliest page. Leave out what no page states.';

/** The pages' data does not fit in one merge request; the built-in merge takes over. */
export class MergeTooLargeError extends Error {
  override name = 'MergeTooLargeError';
}

/** Models often wrap JSON in a Markdown fence even when told not to; accept that much. */
function parseAnswer(text: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return JSON.parse(fenced?.[1] ?? text) as unknown;
}

/**
 * One chat completion that merges the per-page extractions into the caller's schema (checked
 * against `schema`, which demands no completeness: a field no page states stays out rather than
 * being made up to satisfy `required`). A bad answer gets one retry told what was wrong; a
 * second one is an LlmError.
 */
export async function mergeWithLlm(
  llm: LlmProvider,
  {
    pages,
    schema,
    prompt,
    systemPrompt,
  }: {
    pages: readonly PageExtraction[];
    schema: GuardedSchema | undefined;
    prompt: string | undefined;
    systemPrompt: string | undefined;
  },
): Promise<unknown> {
  const extracted = JSON.stringify(pages.map(({ url, value }) => ({ url, data: value })));
  if (extracted.length > MAX_PROMPT_CONTENT_CHARS) {
    throw new MergeTooLargeError(
      `the pages' data (${extracted.length} characters) is more than one merge request takes (${MAX_PROMPT_CONTENT_CHARS})`,
    );
  }
  const task = [
    prompt === undefined ? '' : `What the caller asked for: ${prompt}`,
    schema === undefined
      ? ''
      : `The JSON must conform to this JSON Schema:\n${JSON.stringify(schema.schema)}`,
    `The data extracted from each page, in page order:\n${extracted}`,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content:
        systemPrompt === undefined
          ? MERGE_SYSTEM_PROMPT
          : `${MERGE_SYSTEM_PROMPT}\n\nThe caller's instructions: ${systemPrompt}`,
    },
    { role: 'user', content: task },
  ];

  let problem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await llm.complete(messages, { json: true });
    let value: unknown;
    try {
      value = parseAnswer(answer);
    } catch {
      problem = 'the answer was not valid JSON';
      messages.push(
        { role: 'assistant', content: answer },
        { role: 'user', content: 'That was not valid JSON. Answer with the JSON object only.' },
      );
      continue;
    }
    if (schema === undefined || schema.validate(value)) return value;
    problem = `the answer did not match the schema (${describeSchemaErrors(schema.validate)})`;
    messages.push(
      { role: 'assistant', content: answer },
      {
        role: 'user',
        content: `That JSON does not match the schema: ${describeSchemaErrors(schema.validate)}. Answer again with corrected JSON only.`,
      },
    );
  }
  throw new LlmError(`${problem}, also after a retry`);
}
