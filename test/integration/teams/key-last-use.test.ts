import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticKeyring, createStoreKeyring, DEFAULT_TEAM } from '../../../server/platform/auth/keyring';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive, type RunningTabhive } from '../../../server/start-tabhive';
import type { ApiKeyStore } from '../../../server/platform/store/stores/api-key-store';
import { waitUntil } from '../../helpers/start-test-tabhive';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/** A key's last use: written once a minute at most, never in the request's way, listed for the admin. */

const env = useEmbeddedStores();

/** The real store, counting its last-use writes. */
const counting = (apiKeys: ApiKeyStore) => {
  const writes: Date[] = [];
  const store: ApiKeyStore = {
    ...apiKeys,
    recordUse: async (apiKey, at) => {
      if (at !== undefined) writes.push(at);
      await apiKeys.recordUse(apiKey, at);
    },
  };
  return { store, writes };
};

const lastUsed = async (apiKeys: ApiKeyStore, teamId: string) =>
  (await apiKeys.list({ teamId }))[0]?.lastUsedAt;

describe("the keyring's record of a key's last use", () => {
  it('writes once for two uses within a minute, and again after it', async () => {
    const { stores } = env;
    await stores.teams.create({ id: 'busy', name: 'Busy' });
    const { apiKey } = await stores.apiKeys.create({ teamId: 'busy', label: 'ci' });
    const { store, writes } = counting(stores.apiKeys);
    let clock = Date.parse('2026-03-01T10:00:00.000Z');
    const keyring = createStoreKeyring({
      apiKeys: store,
      teams: stores.teams,
      fixed: createStaticKeyring([]),
      cacheMs: 0,
      now: () => clock,
    });
    expect(await lastUsed(stores.apiKeys, 'busy')).toBeUndefined();

    expect(await keyring.findTeam(apiKey)).toEqual({ id: 'busy', name: 'Busy' });
    clock += 30_000;
    expect(await keyring.findTeam(apiKey)).toEqual({ id: 'busy', name: 'Busy' });
    expect(writes.map((at) => at.toISOString())).toEqual(['2026-03-01T10:00:00.000Z']);
    await waitUntil(
      async () => (await lastUsed(stores.apiKeys, 'busy')) !== undefined,
      5_000,
      'the last use to be stored',
    );
    expect(new Date((await lastUsed(stores.apiKeys, 'busy')) as Date).toISOString()).toBe(
      '2026-03-01T10:00:00.000Z',
    );

    clock += 31_000;
    await keyring.findTeam(apiKey);
    expect(writes).toHaveLength(2);
    await waitUntil(
      async () =>
        new Date((await lastUsed(stores.apiKeys, 'busy')) ?? 0).toISOString() === '2026-03-01T10:01:01.000Z',
      5_000,
      'the second use to be stored',
    );
    // A wrong key is no use of any key.
    expect(await keyring.findTeam('fc-not-a-key-000000000000000000000')).toBeUndefined();
    expect(writes).toHaveLength(2);
  });

  it('answers the request when the store cannot take the write', async () => {
    const { stores } = env;
    await stores.teams.create({ id: 'flaky', name: 'Flaky' });
    const { apiKey } = await stores.apiKeys.create({ teamId: 'flaky', label: 'ci' });
    let attempts = 0;
    const keyring = createStoreKeyring({
      apiKeys: {
        ...stores.apiKeys,
        recordUse: () => {
          attempts += 1;
          return Promise.reject(new Error('store down'));
        },
      },
      teams: stores.teams,
      fixed: createStaticKeyring([{ apiKey: 'fc-configured-key-for-last-use-01', team: DEFAULT_TEAM }]),
    });
    expect(await keyring.findTeam(apiKey)).toEqual({ id: 'flaky', name: 'Flaky' });
    expect(await keyring.findTeam('fc-configured-key-for-last-use-01')).toEqual(DEFAULT_TEAM);
    expect(await keyring.findTeam(apiKey)).toEqual({ id: 'flaky', name: 'Flaky' });
    expect(attempts).toBe(2);
  });
});

const ADMIN_KEY = 'admin-key-for-last-use-tests-000001';
const DEFAULT_KEY = 'fc-default-key-for-last-use-tests';

describe("the admin's key list", () => {
  let dataDir: string;
  let tabhive: RunningTabhive;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-last-use-'));
    tabhive = await startTabhive({
      config: loadConfig({
        PORT: '0',
        BROWSERS: '0',
        DATA_DIR: dataDir,
        API_KEY: DEFAULT_KEY,
        ADMIN_API_KEY: ADMIN_KEY,
      }),
      server: createServer(),
      log: createLog({ quiet: true }),
    });
  });
  afterAll(async () => {
    await tabhive?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = async (key: string, method: string, pathname: string, body?: unknown) => {
    const response = await fetch(`${tabhive.url}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  type Listed = { keyId: string; label: string; lastUsedAt?: string };
  const keys = async () => (await call(ADMIN_KEY, 'GET', '/admin/v1/keys')).json['data'] as Listed[];

  it('shows when each key was last used, and nothing for a key never used', async () => {
    await call(ADMIN_KEY, 'POST', '/admin/v1/teams', { id: 'acme' });
    const used = (await call(ADMIN_KEY, 'POST', '/admin/v1/teams/acme/keys', { label: 'used' })).json[
      'data'
    ] as Listed & { apiKey: string };
    const idle = (await call(ADMIN_KEY, 'POST', '/admin/v1/teams/acme/keys', { label: 'idle' })).json[
      'data'
    ] as Listed;
    const before = Date.now();
    expect((await call(used.apiKey, 'GET', '/v2/team/credit-usage')).status).toBe(200);
    expect((await call(DEFAULT_KEY, 'GET', '/v2/team/credit-usage')).status).toBe(200);

    await waitUntil(
      async () => (await keys()).filter((key) => key.lastUsedAt !== undefined).length === 2,
      5_000,
      'both uses to be listed',
    );
    const listed = await keys();
    const usedAt = Date.parse(listed.find((key) => key.keyId === used.keyId)?.lastUsedAt ?? '');
    expect(usedAt).toBeGreaterThanOrEqual(before - 1_000);
    expect(listed.find((key) => key.label === 'API_KEY')?.lastUsedAt).toEqual(expect.any(String));
    expect(listed.find((key) => key.keyId === idle.keyId)).not.toHaveProperty('lastUsedAt');
    const teamList = (await call(ADMIN_KEY, 'GET', '/admin/v1/teams/acme/keys')).json['data'] as Listed[];
    expect(teamList.find((key) => key.keyId === used.keyId)?.lastUsedAt).toBe(
      listed.find((key) => key.keyId === used.keyId)?.lastUsedAt,
    );
  });
});
