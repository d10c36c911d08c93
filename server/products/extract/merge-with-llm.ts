import {
  completeJson,
  schemaInstruction,
  type LlmProvider,
  MAX_PROMPT_CONTENT_CHARS,
  type GuardedSchema,
} from '../../platform/llm';
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

/**
 * One chat completion that merges the per-page extractions into the caller's schema (checked
 * against `schema`, which demands no completeness: a field no page states stays out rather than
 * being made up to satisfy `required`). A bad answer gets one retry told what was wrong; a
 * second one is an LlmError (completeJson).
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
    schemaInstruction(schema),
    `The data extracted from each page, in page order:\n${extracted}`,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  return completeJson(
    llm,
    [
      {
        role: 'system',
        content:
          systemPrompt === undefined
            ? MERGE_SYSTEM_PROMPT
            : `${MERGE_SYSTEM_PROMPT}\n\nThe caller's instructions: ${systemPrompt}`,
      },
      { role: 'user', content: task },
    ],
    schema,
  );
}
