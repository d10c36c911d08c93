import { keyHint } from './key-hint';
import type { ResolvedApiKey } from './resolve-api-key';

/**
 * What the command line says after a 401: which key it sent (its hint, never the key) and where
 * that key came from, then every way of giving another one, in the order they are looked at.
 * `command` is how the user runs tabhive (invoked-as.ts).
 */
export function unauthorizedHint(key: ResolvedApiKey, command: string): string {
  const sent =
    key.apiKey === undefined
      ? `No API key was sent${key.file === undefined ? '' : ` (no key file at ${key.file})`}.`
      : `The server refused the key ${keyHint(key.apiKey)}, ${
          key.source === 'option'
            ? 'given with --api-key'
            : key.source === 'environment'
              ? 'from TABHIVE_API_KEY'
              : `read from ${key.file ?? 'the key file'}`
        }.`;
  return [
    sent,
    'Give a key with one of (the first that is set is used):',
    `  ${command} --api-key <key> …`,
    '  export TABHIVE_API_KEY=<key>',
    '  the key file a server on this machine wrote on its first start: $DATA_DIR/api-key',
    '  (DATA_DIR as for the server, ./data by default; read for a loopback --api-url only)',
    `A new key: ${command} keys create --team <team> (docs/teams-and-credits.md).`,
  ].join('\n');
}
