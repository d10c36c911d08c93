import { z } from 'zod';
import { chatCompletionsEndpoint, postChatCompletion } from './chat-completions';
import { LLM_TIMEOUT_MS, LlmError } from './llm-provider';

/** A function the model may call: its name, what it does, and a JSON Schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One call the model asked for; `arguments` is the JSON text the model wrote (it may be broken). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A conversation turn in the chat completions API, tool calls and their results included. */
export type ToolChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallWire[] }
  | { role: 'tool'; tool_call_id: string; content: string };

interface ToolCallWire {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The model's turn: its text (if any) and the calls it wants made (possibly none). */
export interface ToolTurn {
  content: string | null;
  toolCalls: ToolCall[];
}

export interface ToolCallingLlm {
  readonly model: string;
  /**
   * One chat completion with `tools` offered. `toolChoice: 'none'` asks for a text answer (the
   * tools stay declared: some providers refuse a history of tool calls without them).
   */
  chat(
    messages: readonly ToolChatMessage[],
    options: {
      tools: readonly ToolDefinition[];
      toolChoice?: 'auto' | 'none';
      json?: boolean;
      signal?: AbortSignal;
    },
  ): Promise<ToolTurn>;
}

const Completion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().optional(),
                function: z.object({ name: z.string(), arguments: z.union([z.string(), z.unknown()]) }),
              }),
            )
            .nullable()
            .optional(),
        }),
      }),
    )
    .min(1),
});

/** Echoes the model's calls back in the assistant turn that asked for them, as the API requires. */
export function assistantTurn(turn: ToolTurn): ToolChatMessage {
  return {
    role: 'assistant',
    content: turn.content,
    ...(turn.toolCalls.length === 0
      ? {}
      : {
          tool_calls: turn.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }),
  };
}

/**
 * Chat completions with OpenAI-style tool calling (`tools` + `tool_calls`) at LLM_BASE_URL, for
 * the agent. A sibling of createLlmProvider rather than a change to it: the LLM formats keep their
 * plain text interface. Undefined without LLM_BASE_URL.
 */
export function createToolCallingLlm({
  baseUrl,
  apiKey,
  model,
  timeoutMs = LLM_TIMEOUT_MS,
  onTokens,
}: {
  baseUrl: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
  timeoutMs?: number;
  onTokens?: (tokens: number) => void;
}): ToolCallingLlm | undefined {
  if (baseUrl === undefined) return undefined;
  const endpoint = chatCompletionsEndpoint(baseUrl);
  const modelName = model ?? 'gpt-4o-mini';
  return {
    model: modelName,
    async chat(messages, { tools, toolChoice = 'auto', json = false, signal }) {
      const parsed = await postChatCompletion(
        { endpoint, apiKey, timeoutMs, signal, onTokens },
        {
          model: modelName,
          messages,
          temperature: 0,
          ...(tools.length === 0
            ? {}
            : {
                tools: tools.map((tool) => ({ type: 'function', function: tool })),
                tool_choice: toolChoice,
              }),
          ...(json ? { response_format: { type: 'json_object' } } : {}),
        },
        Completion,
      );
      const message = parsed.choices[0]?.message;
      const toolCalls = (message?.tool_calls ?? []).map((call, index) => ({
        // Some servers (older Ollama) leave ids out; the reply must still name each call.
        id: call.id ?? `call_${index}`,
        name: call.function.name,
        arguments:
          typeof call.function.arguments === 'string'
            ? call.function.arguments
            : JSON.stringify(call.function.arguments ?? {}),
      }));
      const content = message?.content ?? null;
      if (toolCalls.length === 0 && (content === null || content.trim() === '')) {
        throw new LlmError('the LLM answered with neither text nor tool calls');
      }
      return { content, toolCalls };
    },
  };
}
