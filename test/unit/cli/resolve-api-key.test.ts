import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveApiKey } from '../../../server/api/cli/tabhive/resolve-api-key';

describe('resolveApiKey', () => {
  let dir: string;
  const local = new URL('http://127.0.0.1:3002');

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-cli-key-'));
    await writeFile(path.join(dir, 'api-key'), 'fc-from-the-file\n');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('takes --api-key first, then TABHIVE_API_KEY', async () => {
    const env = { TABHIVE_API_KEY: 'fc-env', DATA_DIR: dir };
    expect(await resolveApiKey({ option: 'fc-flag', env, apiUrl: local })).toEqual({
      apiKey: 'fc-flag',
      source: 'option',
    });
    expect(await resolveApiKey({ option: undefined, env, apiUrl: local })).toEqual({
      apiKey: 'fc-env',
      source: 'environment',
    });
  });

  it("reads the local server's key file from DATA_DIR, or ./data", async () => {
    expect(await resolveApiKey({ option: undefined, env: { DATA_DIR: dir }, apiUrl: local })).toEqual({
      apiKey: 'fc-from-the-file',
      source: 'file',
      file: path.join(dir, 'api-key'),
    });
    await mkdir(path.join(dir, 'data'));
    await writeFile(path.join(dir, 'data', 'api-key'), 'fc-default-dir');
    expect(
      (
        await resolveApiKey({
          option: undefined,
          env: {},
          apiUrl: new URL('http://localhost:3002'),
          cwd: dir,
        })
      ).apiKey,
    ).toBe('fc-default-dir');
  });

  it('never sends the local key file to a remote server', async () => {
    expect(
      await resolveApiKey({
        option: undefined,
        env: { DATA_DIR: dir },
        apiUrl: new URL('https://tabhive.example.com'),
      }),
    ).toEqual({ apiKey: undefined, source: 'none' });
  });

  it('has no key when there is no file', async () => {
    expect(
      await resolveApiKey({ option: undefined, env: { DATA_DIR: path.join(dir, 'missing') }, apiUrl: local }),
    ).toEqual({ apiKey: undefined, source: 'none', file: path.join(dir, 'missing', 'api-key') });
  });
});
