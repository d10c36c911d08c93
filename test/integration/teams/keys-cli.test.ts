import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGeneratedApiKey } from '../../../server/platform/store/stores/api-key-format';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive } from '../../../server/start-tabhive';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

describe('npm run keys', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-keys-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Through a running server's admin API when `admin` is given. */
  let admin: { url: string; key: string } | undefined;
  const keys = async (...args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(TSX, ['server/api/cli/keys.ts', ...args], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          MONGODB_URL: '',
          ADMIN_API_KEY: admin?.key ?? '',
          TABHIVE_API_URL: admin?.url ?? '',
        },
      });
      return { code: 0, stdout, stderr: '' };
    } catch (err) {
      const failed = err as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CLI's JSON output, asserted on by shape
  const json = async (...args: string[]): Promise<any> => {
    const result = await keys(...args, '--json');
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as unknown;
  };

  it('creates teams and keys that a server started later accepts, and revokes them', async () => {
    expect(await json('team', 'create', 'acme', '--allowance', '5', '--concurrency', '3')).toMatchObject({
      id: 'acme',
      creditAllowance: 5,
      remainingCredits: 5,
      maxConcurrency: 3,
      rateLimitPerMinute: null,
    });
    expect((await keys('team', 'create', 'acme')).stderr).toMatch(/exists already/);
    const created = await json('create', '--team', 'acme', '--label', 'ci');
    expect(isGeneratedApiKey(created.apiKey)).toBe(true);
    // `create` makes the team when it is missing.
    const other = await json('create', '--team', 'globex');
    expect(await json('team', 'set', 'globex', '--allowance', '0', '--rate-limit', '60')).toMatchObject({
      creditAllowance: 0,
      rateLimitPerMinute: 60,
    });
    const listed = await json('list');
    expect(listed.map((key: { keyId: string }) => key.keyId).sort()).toEqual(
      [created.keyId, other.keyId].sort(),
    );
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);
    expect((await json('team', 'list')).map((team: { id: string }) => team.id)).toEqual(['acme', 'globex']);
    expect((await keys('team', 'set', 'acme', '--allowance', 'lots')).code).toBe(1);
    expect((await keys('frobnicate')).stderr).toMatch(/unknown command/);

    const server = createServer();
    const tabhive = await startTabhive({
      config: loadConfig({ PORT: '0', BROWSERS: '0', DATA_DIR: dataDir, API_KEY: 'configured-default-key' }),
      server,
      log: createLog({ quiet: true }),
    });
    const usage = (key: string) =>
      fetch(`${tabhive.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${key}` } });
    try {
      expect(await (await usage(created.apiKey)).json()).toMatchObject({ data: { remainingCredits: 5 } });
      expect(await (await usage(other.apiKey)).json()).toMatchObject({ data: { remainingCredits: 0 } });
      // While the server holds the embedded store, the CLI refuses rather than lose writes.
      const refused = await keys('revoke', created.keyId);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/in use by process/);
      // … and says how to do it while the server runs.
      expect(refused.stderr).toMatch(/ADMIN_API_KEY/);
      expect(refused.stderr).toMatch(/admin API/);
    } finally {
      await tabhive.stop();
    }
    expect(await json('revoke', created.keyId)).toMatchObject({ keyId: created.keyId, teamId: 'acme' });
    // The configured default key is listed too, without revealing it.
    const after = await json('list');
    expect(after.find((key: { teamId: string }) => key.teamId === 'default')).toMatchObject({
      label: 'API_KEY',
      hint: 'conf…',
    });

    const again = await startTabhive({
      config: loadConfig({ PORT: '0', BROWSERS: '0', DATA_DIR: dataDir, API_KEY: 'configured-default-key' }),
      server: createServer(),
      log: createLog({ quiet: true }),
    });
    try {
      const response = await fetch(`${again.url}/v2/team/credit-usage`, {
        headers: { authorization: `Bearer ${created.apiKey}` },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
    } finally {
      await again.stop();
    }
  }, 120_000);

  it("goes through the running server's admin API when ADMIN_API_KEY is set", async () => {
    const tabhive = await startTabhive({
      config: loadConfig({
        PORT: '0',
        BROWSERS: '0',
        DATA_DIR: dataDir,
        ADMIN_API_KEY: 'admin-keys-cli-0001',
      }),
      server: createServer(),
      log: createLog({ quiet: true }),
    });
    try {
      admin = { url: tabhive.url, key: 'admin-keys-cli-0001' };
      // The server holds the embedded store all along: every command goes through it.
      const created = await json('create', '--team', 'acme', '--label', 'ci');
      expect(created).toMatchObject({ teamId: 'acme', label: 'ci' });
      expect(isGeneratedApiKey(created.apiKey)).toBe(true);
      const usage = await fetch(`${tabhive.url}/v2/team/credit-usage`, {
        headers: { authorization: `Bearer ${created.apiKey}` },
      });
      expect(usage.status).toBe(200);
      expect(await json('team', 'set', 'acme', '--allowance', '7')).toMatchObject({ creditAllowance: 7 });
      expect((await json('list', '--team', 'acme')).map((key: { keyId: string }) => key.keyId)).toEqual([
        created.keyId,
      ]);
      const text = await keys('list');
      expect(text.stdout).toContain(created.keyId);
      expect(await json('revoke', created.keyId)).toMatchObject({ keyId: created.keyId });
      expect((await keys('team', 'create', 'acme')).stderr).toMatch(/exists already/);
      expect((await json('node-token', 'create', '--team', 'acme')).token).toMatch(/^tbn_/);

      admin = { url: tabhive.url, key: 'admin-not-the-one' };
      const wrongKey = await keys('team', 'list');
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toMatch(/ADMIN_API_KEY is not the one/);
    } finally {
      admin = undefined;
      await tabhive.stop();
    }
  }, 60_000);

  it('creates, lists and revokes browser node tokens, for the shared pool or one team', async () => {
    const pool = await json('node-token', 'create', '--label', 'rack 1');
    expect(pool).toMatchObject({ team: null, label: 'rack 1', revokedAt: null });
    expect(pool.token).toMatch(/^tbn_[\w-]{43}$/);
    const missing = await keys('node-token', 'create', '--team', 'nobody');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no team "nobody"/);
    await json('team', 'create', 'acme');
    const team = await json('node-token', 'create', '--team', 'acme');
    expect(team).toMatchObject({ team: 'acme', label: 'acme node' });

    const text = await keys('node-token', 'create');
    expect(text.stdout).toMatch(/npm run browser-node -- --server .* --token tbn_/);
    const listed = await json('node-token', 'list');
    expect(listed.map((token: { id: string }) => token.id)).toEqual(
      expect.arrayContaining([pool.id, team.id]),
    );
    // Lists never show a secret.
    expect(JSON.stringify(listed)).not.toContain('tbn_');

    expect(await json('node-token', 'revoke', pool.id)).toMatchObject({ id: pool.id });
    expect(
      (await json('node-token', 'list')).find((token: { id: string }) => token.id === pool.id).revokedAt,
    ).not.toBeNull();
    const twice = await keys('node-token', 'revoke', pool.id);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/no active node token/);
  }, 60_000);
});
