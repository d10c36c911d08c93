import { JobFailure } from '../jobs';
import {
  type ToolCallingLlm,
  type ToolChatMessage,
  type ToolDefinition,
  type GuardedSchema,
  describeSchemaErrors,
} from '../../platform/llm';

/** Models often fence JSON in Markdown even when told not to; accept that much. */
export function parseJsonAnswer(text: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return JSON.parse(fenced?.[1] ?? text) as unknown;
}

/** What is wrong with an answer (not JSON, not an object, not the schema's shape), or undefined. */
export function answerProblem(
  text: string,
  schema: GuardedSchema | undefined,
): { problem?: string; value?: unknown } {
  let value: unknown;
  try {
    value = parseJsonAnswer(text);
  } catch {
    return { problem: 'the answer is not valid JSON' };
  }
  if (schema === undefined) {
    return value !== null && typeof value === 'object'
      ? { value }
      : { problem: 'the answer is not a JSON object' };
  }
  if (schema.validate(value)) return { value };
  return { problem: `the answer does not match the schema: ${describeSchemaErrors(schema.validate)}` };
}

/**
 * The model's JSON answer, validated (as the json format validates with ajv): `first` is an answer
 * already in hand (the model's last turn), otherwise one is asked for with `request`. A bad answer
 * gets one repair attempt, told what was wrong; a second bad answer fails the run, saying why.
 * `onCall` counts each model call (credits).
 */
export async function settleJsonAnswer({
  llm,
  messages,
  tools,
  schema,
  request,
  first,
  signal,
  onCall,
}: {
  llm: ToolCallingLlm;
  messages: ToolChatMessage[];
  tools: readonly ToolDefinition[];
  schema: GuardedSchema | undefined;
  request: string;
  first?: string | undefined;
  signal: AbortSignal;
  onCall(): void;
}): Promise<unknown> {
  const ask = async (content: string) => {
    messages.push({ role: 'user', content });
    onCall();
    const turn = await llm.chat(messages, { tools, toolChoice: 'none', json: true, signal });
    const text = turn.content ?? '';
    messages.push({ role: 'assistant', content: text });
    return text;
  };
  const answer = first ?? (await ask(request));
  const checked = answerProblem(answer, schema);
  if (checked.problem === undefined) return checked.value;
  const repaired = await ask(
    `That answer cannot be used: ${checked.problem}. Answer again with corrected JSON only, no tool calls.`,
  );
  const again = answerProblem(repaired, schema);
  if (again.problem === undefined) return again.value;
  throw new JobFailure(
    `The agent's final answer could not be used, also after one repair attempt: ${again.problem}.`,
  );
}
