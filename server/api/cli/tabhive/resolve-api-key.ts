import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { API_KEY_FILE } from '../../../platform/auth';

export const DEFAULT_API_URL = 'http://127.0.0.1:3002';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface ResolvedApiKey {
  apiKey: string | undefined;
  /** Where the key came from, for the hint after a 401. */
  source: 'option' | 'environment' | 'file' | 'none';
  /** The key file: where the key came from (`file`), or where none was found (`none`, a local server). */
  file?: string;
}

/**
 * The API key, in this order: `--api-key`, TABHIVE_API_KEY, and for a server on this machine the
 * key file a local server wrote on its first start (`$DATA_DIR/api-key`, DATA_DIR defaulting to
 * ./data as for the server). The file is never read for a remote URL, so a local key is not sent
 * to another host.
 */
export async function resolveApiKey({
  option,
  env,
  apiUrl,
  cwd = process.cwd(),
}: {
  option: string | undefined;
  env: Record<string, string | undefined>;
  apiUrl: URL;
  cwd?: string;
}): Promise<ResolvedApiKey> {
  if (option !== undefined && option !== '') return { apiKey: option, source: 'option' };
  const fromEnv = env.TABHIVE_API_KEY;
  if (fromEnv !== undefined && fromEnv !== '') return { apiKey: fromEnv, source: 'environment' };
  if (!LOOPBACK_HOSTS.has(apiUrl.hostname)) return { apiKey: undefined, source: 'none' };
  const file = path.resolve(cwd, env.DATA_DIR || './data', API_KEY_FILE);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored !== '') return { apiKey: stored, source: 'file', file };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EACCES' && code !== 'EISDIR') throw err;
  }
  return { apiKey: undefined, source: 'none', file };
}
