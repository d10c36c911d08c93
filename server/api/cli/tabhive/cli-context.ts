import type { Command } from 'commander';
import { UsageError } from '../usage-error';
import { createApiClient, type ApiClient } from './api-client';
import { invokedAs } from './invoked-as';
import { DEFAULT_API_URL, resolveApiKey } from './resolve-api-key';
import { unauthorizedHint } from './unauthorized-hint';

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
  /** How the user runs tabhive (`npx tabhive`, …), for commands printed back. */
  command: string;
}

/** The API client and output settings for the command being run, from its options and the environment. */
export async function contextOf(self: Command, env: NodeJS.ProcessEnv = process.env): Promise<CliContext> {
  const options = self.optsWithGlobals<GlobalOptions>();
  const given = options.apiUrl ?? (env.TABHIVE_API_URL || DEFAULT_API_URL);
  const apiUrl = URL.parse(given);
  if (apiUrl === null || (apiUrl.protocol !== 'http:' && apiUrl.protocol !== 'https:'))
    throw new UsageError(`--api-url must be an http(s) URL, got "${given}"`);
  const key = await resolveApiKey({ option: options.apiKey, env, apiUrl });
  const command = invokedAs(env);
  return {
    client: createApiClient({
      apiUrl: apiUrl.href,
      apiKey: key.apiKey,
      unauthorizedHint: unauthorizedHint(key, command),
    }),
    json: options.json === true,
    quiet: options.quiet === true,
    command,
  };
}
