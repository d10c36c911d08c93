import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** Published AEB outputs of other extractors, for reference rows: scored, not run (no speed). */
export const PEERS = ['rs_trafilatura', 'trafilatura', 'readability_js'];

/** The articleBody a peer extracted per page id; the files are `{id:{articleBody}}`, optionally wrapped as `{version, output}`. */
export function loadPeerOutput(dataDir: string, peer: string): Map<string, string> | undefined {
  const path = join(dataDir, 'peer-outputs', `${peer}.json.gz`);
  if (!existsSync(path)) return undefined;
  const parsed = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as Record<string, unknown>;
  const entries = (
    typeof parsed.output === 'object' && parsed.output !== null ? parsed.output : parsed
  ) as Record<string, { articleBody?: string } | null>;
  return new Map(Object.entries(entries).map(([id, entry]) => [id, entry?.articleBody ?? '']));
}
