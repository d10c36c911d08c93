import { z } from 'zod';
import { LlmError } from './llm-error';

/** `…/v1` and `…/v1/` both name the API root; chat/completions is relative to it. */
export function chatCompletionsEndpoint(baseUrl: string): URL {
  return new URL('chat/completions', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

/** What a call cost; providers that do not count leave it out (or send something else). */
const Usage = z
  .object({ total_tokens: z.number().int().min(0) })
  .optional()
  .catch(undefined);

/**
 * One POST to the OpenAI-compatible chat completions endpoint, its answer parsed with `schema`
 * (`usage` is read beside it): the text formats' provider and the agent's tool-calling client both
 * call it. Errors become LlmErrors that say what went wrong; an abort by the caller's `signal`
 * is rethrown as it is. Not through the egress: LLM_BASE_URL is the operator's own setting, often a
 * model on loopback or the LAN (Ollama, vLLM), never a URL a caller or a page supplied.
 */
export async function postChatCompletion<T>(
  {
    endpoint,
    apiKey,
    timeoutMs,
    signal,
    onTokens,
  }: {
    endpoint: URL;
    apiKey: string | undefined;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    /** Told the tokens of every answered call the provider counted. */
    onTokens?: ((tokens: number) => void) | undefined;
  },
  body: Record<string, unknown>,
  schema: z.ZodType<T>,
): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
      },
      body: JSON.stringify(body),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    text = await response.text();
  } catch (err) {
    if (signal?.aborted === true) throw err;
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    throw new LlmError(
      timedOut
        ? `the LLM endpoint did not answer within ${timeoutMs} ms`
        : `the LLM endpoint could not be reached (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  if (!response.ok) {
    // The provider's own message says what is wrong (bad key, unknown model); keep it short.
    throw new LlmError(`the LLM endpoint answered ${response.status}: ${text.slice(0, 300)}`);
  }
  let json: unknown;
  let parsed: T;
  try {
    json = JSON.parse(text);
    parsed = schema.parse(json);
  } catch {
    throw new LlmError('the LLM endpoint answered with something other than a chat completion');
  }
  const usage = Usage.parse(
    typeof json === 'object' && json !== null ? (json as { usage?: unknown }).usage : undefined,
  );
  if (usage !== undefined) onTokens?.(usage.total_tokens);
  return parsed;
}
