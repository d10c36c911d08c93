import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where a generated key is kept, so the same key works after a restart. */
export const API_KEY_FILE = 'api-key';

/**
 * The default team's key: API_KEY when set; otherwise the key generated on an earlier start; and
 * on the very first start a new `fc-` + 32 hex key (the shape Firecrawl keys have), which is
 * returned with `generated: true` so the caller prints it once.
 */
export async function resolveDefaultApiKey({
  configured,
  dataDir,
}: {
  configured: string | undefined;
  dataDir: string;
}): Promise<{ apiKey: string; generated: boolean; file?: string }> {
  if (configured !== undefined) return { apiKey: configured, generated: false };
  const file = path.resolve(dataDir, API_KEY_FILE);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored !== '') return { apiKey: stored, generated: false, file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const apiKey = `fc-${randomBytes(16).toString('hex')}`;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${apiKey}\n`, { mode: 0o600, flag: 'wx' });
  return { apiKey, generated: true, file };
}
