import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Tabhive's version, from package.json: the OpenAPI document's `info.version`. */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
  return z.object({ version: z.string() }).parse(JSON.parse(text)).version;
}
