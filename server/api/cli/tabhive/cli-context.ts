import type { Command } from 'commander';
import { UsageError } from '../usage-error';
import { createApiClient, type ApiClient } from './api-client';
import { DEFAULT_API_URL, resolveApiKey } from './resolve-api-key';

/** The options every command takes (defined on the program, accepted before or after the command). */
export interface GlobalOptions {
  apiUrl?: string;
  apiKey?: string;
  json?: boolean;
  quiet?: boolean;
}

export interface CliContext {
  client: ApiClient;
  /** --json: one machine-readable result on stdout. */
  json: boolean;
  /** --quiet: no progress. */
  quiet: boolean;
}

/** The API client and output settings for the command being run, from its options and the environment. */
export async function contextOf(command: Command, env: NodeJS.ProcessEnv = process.env): Promise<CliContext> {
  const options = command.optsWithGlobals<GlobalOptions>();
  const given = options.apiUrl ?? (env.TABHIVE_API_URL || DEFAULT_API_URL);
  const apiUrl = URL.parse(given);
  if (apiUrl === null || (apiUrl.protocol !== 'http:' && apiUrl.protocol !== 'https:'))
    throw new UsageError(`--api-url must be an http(s) URL, got "${given}"`);
  const key = await resolveApiKey({ option: options.apiKey, env, apiUrl });
  const unauthorizedHint =
    key.source === 'none'
      ? 'No API key was given: pass --api-key or set TABHIVE_API_KEY (a local server prints its key on first start).'
      : key.source === 'file'
        ? `The key came from ${key.file}; pass --api-key or set TABHIVE_API_KEY for another.`
        : undefined;
  return {
    client: createApiClient({
      apiUrl: apiUrl.href,
      apiKey: key.apiKey,
      ...(unauthorizedHint === undefined ? {} : { unauthorizedHint }),
    }),
    json: options.json === true,
    quiet: options.quiet === true,
  };
}
