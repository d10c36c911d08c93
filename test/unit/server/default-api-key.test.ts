import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_FILE, resolveDefaultApiKey } from '../../../server/platform/auth/default-api-key';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-key-'));
});
afterEach(async () => rm(dataDir, { recursive: true, force: true }));

describe('the default team key', () => {
  it('is API_KEY when set, and nothing is written', async () => {
    expect(await resolveDefaultApiKey({ configured: 'my-own-key-123', dataDir })).toEqual({
      apiKey: 'my-own-key-123',
      generated: false,
    });
    await expect(stat(path.join(dataDir, API_KEY_FILE))).rejects.toThrow();
  });

  it('is generated once, kept private in DATA_DIR, and reused after a restart', async () => {
    const first = await resolveDefaultApiKey({ configured: undefined, dataDir });
    expect(first.generated).toBe(true);
    expect(first.apiKey).toMatch(/^fc-[0-9a-f]{32}$/);
    const file = path.join(dataDir, API_KEY_FILE);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.apiKey);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await resolveDefaultApiKey({ configured: undefined, dataDir });
    expect(second).toEqual({ apiKey: first.apiKey, generated: false, file });
  });
});
