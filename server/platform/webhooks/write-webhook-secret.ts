import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the default team's webhook secret is written for the operator (receivers verify with it). */
export const WEBHOOK_SECRET_FILE = 'webhook-secret';

/**
 * Writes the secret to DATA_DIR/webhook-secret, readable by the owner only. The secret itself
 * lives on the team record in the store; the file is only how the operator gets to it, and it is
 * never logged.
 */
export async function writeWebhookSecret(dataDir: string, secret: string): Promise<string> {
  const file = path.resolve(dataDir, WEBHOOK_SECRET_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return file;
}
