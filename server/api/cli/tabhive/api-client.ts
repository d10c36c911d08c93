import type { z } from 'zod';
import { ApiErrorBody } from './api-responses';
import { NoAnswer, sendJson } from '../send-json';
import { ApiFailure, ServerUnreachable } from './exit-codes';

export interface ApiClientOptions {
  /** Where Tabhive answers, e.g. `http://127.0.0.1:3002` or `https://tabhive.example/base`. */
  apiUrl: string;
  apiKey: string | undefined;
  /** Said after a 401, e.g. where the key came from. */
  unauthorizedHint?: string;
}

/**
 * The Tabhive HTTP API as the command line uses it: JSON in, a parsed and checked body out, and
 * every failure as an ApiFailure in the API's own words or a ServerUnreachable.
 */
export function createApiClient({ apiUrl, apiKey, unauthorizedHint }: ApiClientOptions) {
  const base = new URL(apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);
  const urlOf = (path: string) => new URL(path.replace(/^\//, ''), base);

  async function request<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.infer<S>> {
    const url = urlOf(path);
    const { response, text, json } = await sendJson(url, { method, bearer: apiKey, body }).catch(
      (err: unknown) => {
        throw err instanceof NoAnswer
          ? new ServerUnreachable(`cannot reach Tabhive at ${err.origin} (${err.reason})`)
          : err;
      },
    );
    if (!response.ok) {
      const error = ApiErrorBody.safeParse(json);
      const hint = response.status === 401 ? unauthorizedHint : undefined;
      if (error.success)
        throw new ApiFailure(response.status, error.data.error, {
          code: error.data.code,
          details: error.data.details,
          hint,
        });
      throw new ApiFailure(
        response.status,
        `HTTP ${response.status} ${response.statusText}${text === '' ? '' : `: ${text.slice(0, 200)}`}`,
        { hint },
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ApiFailure(
        response.status,
        `unexpected answer from ${method} ${url.pathname} (is ${base.href} a Tabhive?): ${parsed.error.issues
          .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
          .join('; ')}`,
      );
    return parsed.data;
  }

  return {
    /** The API's base URL, as given. */
    base,
    get: <S extends z.ZodType>(path: string, schema: S) => request('GET', path, schema),
    post: <S extends z.ZodType>(path: string, body: unknown, schema: S) =>
      request('POST', path, schema, body),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
