import { z } from 'zod';
import { chatCompletionsEndpoint, postChatCompletion } from './chat-completions';
import { LlmError } from './llm-error';

/** How long one chat completion may take; page-sized prompts on small local models are slow. */
export const LLM_TIMEOUT_MS = 60_000;
/** Page text sent to the model is cut here, so one page cannot exceed a context window or a budget. */
export const MAX_PROMPT_CONTENT_CHARS = 60_000;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

// The error lives on a floor below both this file and chat-completions.ts, which throws it too.
export { LlmError };

export interface LlmProvider {
  readonly model: string;
  /** One chat completion; `json` asks for a JSON object (OpenAI's `response_format`). */
  complete(messages: ChatMessage[], options?: { json?: boolean }): Promise<string>;
}

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
});

/**
 * The one way Tabhive talks to a language model: the OpenAI-compatible chat completions API at
 * LLM_BASE_URL (OpenAI, Ollama, vLLM, LiteLLM, … all speak it). Returns undefined when no
 * endpoint is configured, and the LLM formats then use their built-in methods.
 */
export function createLlmProvider({
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
  /** Told the tokens of every answered call the provider counted (token usage by month). */
  onTokens?: (tokens: number) => void;
}): LlmProvider | undefined {
  if (baseUrl === undefined) return undefined;
  const endpoint = chatCompletionsEndpoint(baseUrl);
  const modelName = model ?? 'gpt-4o-mini';
  return {
    model: modelName,
    async complete(messages, { json = false } = {}) {
      const parsed = await postChatCompletion(
        { endpoint, apiKey, timeoutMs, onTokens },
        {
          model: modelName,
          messages,
          temperature: 0,
          ...(json ? { response_format: { type: 'json_object' } } : {}),
        },
        Completion,
      );
      const content = parsed.choices[0]?.message.content;
      if (content === undefined || content === null || content.trim() === '') {
        throw new LlmError('the LLM answered with no text');
      }
      return content;
    },
  };
}
