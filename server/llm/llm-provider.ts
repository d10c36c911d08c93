import { z } from 'zod';

/** How long one chat completion may take; page-sized prompts on small local models are slow. */
export const LLM_TIMEOUT_MS = 60_000;
/** Page text sent to the model is cut here, so one page cannot exceed a context window or a budget. */
export const MAX_PROMPT_CONTENT_CHARS = 60_000;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A failed call to the provider: unreachable, timed out, refused, or an answer with no text. */
export class LlmError extends Error {
  override name = 'LlmError';
}

export interface LlmProvider {
  readonly model: string;
  /** One chat completion; `json` asks for a JSON object (OpenAI's `response_format`). */
  complete(messages: ChatMessage[], options?: { json?: boolean }): Promise<string>;
}

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
  /** What the call cost; providers that do not count leave it out. */
  usage: z
    .object({ total_tokens: z.number().int().min(0) })
    .optional()
    .catch(undefined),
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
  // `…/v1` and `…/v1/` both name the API root; chat/completions is relative to it.
  const endpoint = new URL('chat/completions', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const modelName = model ?? 'gpt-4o-mini';
  return {
    model: modelName,
    async complete(messages, { json = false } = {}) {
      let response: Response;
      try {
        // Not through the egress: LLM_BASE_URL is the operator's own setting, often a model on
        // loopback or the LAN (Ollama, vLLM), never a URL a caller or a page supplied.
        response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
          },
          body: JSON.stringify({
            model: modelName,
            messages,
            temperature: 0,
            ...(json ? { response_format: { type: 'json_object' } } : {}),
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const timedOut = err instanceof Error && err.name === 'TimeoutError';
        throw new LlmError(
          timedOut
            ? `the LLM endpoint did not answer within ${timeoutMs} ms`
            : `the LLM endpoint could not be reached (${err instanceof Error ? err.message : String(err)})`,
        );
      }
      const text = await response.text();
      if (!response.ok) {
        // The provider's own message says what is wrong (bad key, unknown model); keep it short.
        throw new LlmError(`the LLM endpoint answered ${response.status}: ${text.slice(0, 300)}`);
      }
      let parsed: z.infer<typeof Completion>;
      try {
        parsed = Completion.parse(JSON.parse(text));
      } catch {
        throw new LlmError('the LLM endpoint answered with something other than a chat completion');
      }
      if (parsed.usage !== undefined) onTokens?.(parsed.usage.total_tokens);
      const content = parsed.choices[0]?.message.content;
      if (content === undefined || content === null || content.trim() === '') {
        throw new LlmError('the LLM answered with no text');
      }
      return content;
    },
  };
}
