import { type ChatMessage, LlmError, type LlmProvider, MAX_PROMPT_CONTENT_CHARS } from './llm-provider';
import { describeSchemaErrors, type GuardedSchema } from './schema-guard';

const SYSTEM_PROMPT =
  'You extract structured data from one web page. Answer with a single JSON object and nothing ' +
  'else. Use only facts stated on the page; leave out what the page does not say rather than guessing.';

/** Models often wrap JSON in a Markdown fence even when told not to; accept that much. */
function parseAnswer(text: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return JSON.parse(fenced?.[1] ?? text) as unknown;
}

/** The task's line that names the schema the answer must follow; empty without a schema. */
export const schemaInstruction = (schema: GuardedSchema | undefined): string =>
  schema === undefined ? '' : `The JSON must conform to this JSON Schema:\n${JSON.stringify(schema.schema)}`;

/**
 * The model's answer to `conversation` as JSON, validated against `schema` when there is one. An
 * answer that is not JSON or fails the schema gets one retry, told what was wrong; a second bad
 * answer is an LlmError naming the problem.
 */
export async function completeJson(
  llm: LlmProvider,
  conversation: readonly ChatMessage[],
  schema: GuardedSchema | undefined,
): Promise<unknown> {
  const messages = [...conversation];
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

/**
 * Asks the model for a JSON object about the page, validated against the caller's schema when
 * there is one (completeJson: one retry for a bad answer).
 */
export async function askForJson(
  llm: LlmProvider,
  {
    content,
    schema,
    prompt,
  }: { content: string; schema?: GuardedSchema | undefined; prompt?: string | undefined },
): Promise<unknown> {
  const task = [
    prompt ?? 'Extract the main structured information of this page.',
    schemaInstruction(schema),
    `Page content (Markdown):\n${content.slice(0, MAX_PROMPT_CONTENT_CHARS)}`,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  return completeJson(
    llm,
    [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: task },
    ],
    schema,
  );
}
