import type { GuardedSchema } from '../../platform/llm';
import type { AgentSpec } from './agent-spec';

const TOOL_RULES =
  'Use the tools to find and read what you need; read pages rather than guessing from search results. ' +
  'Use only facts the pages state. When you have enough, stop calling tools and answer.';

/** The run's opening: how to work, then the task with its URLs, limits and answer shape. */
export function openingMessages(spec: AgentSpec, schema: GuardedSchema | undefined) {
  const system =
    spec.flavor === 'agent'
      ? `You are a web research agent. ${TOOL_RULES} Tools that refuse a page (outside the allowed URLs, a spent budget) will not change their answer: work with what you may read.`
      : [
          spec.research?.systemPrompt,
          `You are a deep research agent: search the web, read the most relevant sources, search again to fill gaps, then write an analysis. ${TOOL_RULES}`,
        ]
          .filter((part) => part !== undefined && part !== null && part !== '')
          .join('\n\n');
  const task = [
    spec.flavor === 'agent' ? `Task: ${spec.prompt}` : `Research question: ${spec.prompt}`,
    spec.urls.length === 0
      ? undefined
      : spec.strict
        ? `You may only read these URLs and the pages below them: ${spec.urls.join(', ')}`
        : `Start from these URLs: ${spec.urls.join(', ')}`,
    `You have at most ${spec.maxSteps} turns of tool calls.`,
    spec.flavor === 'agent' && spec.mode === 'extract'
      ? schema === undefined
        ? 'Your final answer will be one JSON object.'
        : `Your final answer will be one JSON object conforming to this JSON Schema:\n${JSON.stringify(schema.schema)}`
      : undefined,
  ]
    .filter((part) => part !== undefined)
    .join('\n\n');
  return [
    { role: 'system' as const, content: system },
    { role: 'user' as const, content: task },
  ];
}

/** Asks for the agent's final answer, saying why the tools stopped when a limit stopped them. */
export function finalAnswerRequest(
  spec: AgentSpec,
  schema: GuardedSchema | undefined,
  limit: string | undefined,
) {
  const why = limit === undefined ? '' : `${limit} Do not call tools any more. `;
  if (spec.mode === 'chat') return `${why}Give your final answer now, in plain text.`;
  return schema === undefined
    ? `${why}Give your final answer now: one JSON object with what the task asked for, and nothing else.`
    : `${why}Give your final answer now: one JSON object conforming to this JSON Schema, and nothing else:\n${JSON.stringify(schema.schema)}`;
}

/** Asks deep research's final analysis. */
export function analysisRequest(spec: AgentSpec, limit: string | undefined) {
  return [
    limit === undefined ? '' : `${limit} Do not call tools any more.`,
    'Write the final analysis now, in Markdown: answer the research question from the sources you read, ' +
      'citing their URLs, and say what remains uncertain.',
    spec.research?.analysisPrompt ?? '',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/** Asks deep research's JSON answer, when `formats` has `json`. */
export function researchJsonRequest(spec: AgentSpec, schema: GuardedSchema | undefined) {
  return [
    spec.research?.jsonSystemPrompt ?? '',
    spec.research?.jsonPrompt ?? 'Now give the findings as one JSON object, and nothing else.',
    schema === undefined ? '' : `It must conform to this JSON Schema:\n${JSON.stringify(schema.schema)}`,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
