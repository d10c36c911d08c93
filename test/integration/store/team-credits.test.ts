import { beforeEach, describe, expect, it } from 'vitest';
import { isGeneratedApiKey } from '../../../server/platform/store/stores/api-key-format';
import { createStores, ensureIndexes, type Stores } from '../../../server/platform/store/create-stores';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';

describe.each(DATABASE_BACKENDS)('$kind database: teams, keys and credits', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;

    beforeEach(async () => {
      stores = await freshStores(harness);
    });

    it("gives a dead instance's reservations back, but not one another instance took over", async () => {
      const database = await harness.fresh();
      stores = createStores(database);
      await ensureIndexes(stores);
      await stores.teams.create({ id: 'fleet', creditAllowance: 10 });
      const dead = createStores(database, { instanceId: 'dead' }).creditLedger;
      const alive = createStores(database, { instanceId: 'alive' }).creditLedger;
      const at = new Date(Date.now() - 60_000);
      const request = (key: string) => ({ key, teamId: 'fleet', credits: 2, reason: 'crawl x', now: at });
      expect((await dead.reserve(request('page:a'))).status).toBe('reserved');
      expect((await dead.reserve(request('page:b'))).status).toBe('reserved');
      expect((await stores.teams.get('fleet'))?.creditsLeft).toBe(6);
      // The page of task b runs again on the live instance, which takes its reservation over.
      expect((await alive.reserve(request('page:b'))).status).toBe('reserved');
      const released = await alive.releaseOrphaned({ liveHolders: ['alive'], before: new Date() });
      expect(released).toBe(1);
      expect((await stores.teams.get('fleet'))?.creditsLeft).toBe(8);
      expect(await alive.settle('page:b', 2)).toBe(2);
      expect(
        (await stores.creditLedger.entriesForTeam('fleet')).map((entry) => [entry._id, entry.state]),
      ).toEqual([['page:b', 'charged']]);
      // Young reservations and those of live instances stay.
      await dead.reserve({ key: 'page:c', teamId: 'fleet', credits: 1, reason: 'crawl x' });
      expect(await alive.releaseOrphaned({ liveHolders: ['alive'], before: at })).toBe(0);
      expect(
        await alive.releaseOrphaned({ liveHolders: ['alive', 'dead'], before: new Date(Date.now() + 1_000) }),
      ).toBe(0);
    });

    it('spends a small allowance exactly under 50 concurrent workers, each charge delivered twice', async () => {
      const ALLOWANCE = 100;
      await stores.teams.create({ id: 'small', creditAllowance: ALLOWANCE });
      const samples: number[] = [];
      let running = true;
      const sampler = (async () => {
        while (running) {
          const team = await stores.teams.get('small');
          samples.push(team?.creditsLeft ?? Number.NaN);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, async (_, worker) => {
          const won: string[] = [];
          for (let attempt = 0; attempt < 6; attempt += 1) {
            const key = `scrape:${worker}-${attempt}`;
            // The same charge event twice, at once: one reservation, one price.
            const [first, second] = await Promise.all(
              [0, 1].map(() =>
                stores.creditLedger.reserve({ key, teamId: 'small', credits: 1, reason: 'scrape' }),
              ),
            );
            if (first?.status === 'reserved' || second?.status === 'reserved') {
              await Promise.all([stores.creditLedger.settle(key, 1), stores.creditLedger.settle(key, 1)]);
              won.push(key);
            }
          }
          return won;
        }),
      );
      running = false;
      await sampler;
      const charged = outcomes.flat();
      expect(charged).toHaveLength(ALLOWANCE);
      expect(new Set(charged).size).toBe(ALLOWANCE);
      expect(await stores.teams.get('small')).toMatchObject({ creditsUsed: ALLOWANCE, creditsLeft: 0 });
      expect(samples.length).toBeGreaterThan(0);
      expect(samples.every((left) => left >= 0)).toBe(true);
      const entries = await stores.creditLedger.entriesForTeam('small', { limit: 1000 });
      expect(entries).toHaveLength(ALLOWANCE);
      expect(entries.every((entry) => entry.state === 'charged' && entry.credits === 1)).toBe(true);
      // The running total and the ledger agree: reconciliation finds no drift.
      expect(await stores.creditLedger.reconcile('small')).toBe(ALLOWANCE);
      expect((await stores.teams.get('small'))?.creditsUsed).toBe(ALLOWANCE);
      expect(
        await stores.creditLedger.reserve({ key: 'late', teamId: 'small', credits: 1, reason: 'scrape' }),
      ).toEqual({
        status: 'insufficient',
      });
    });

    it('settles a page at its real price, as far as the balance reaches, and releases failures', async () => {
      await stores.teams.create({ id: 't', creditAllowance: 10 });
      const reserve = (key: string, credits: number) =>
        stores.creditLedger.reserve({ key, teamId: 't', credits, reason: 'scrape' });
      expect(await reserve('a', 5)).toEqual({ status: 'reserved', credits: 5 });
      expect(await stores.creditLedger.settle('a', 1)).toBe(1);
      expect(await stores.creditLedger.settle('a', 1)).toBeUndefined();
      expect(await reserve('a', 5)).toEqual({ status: 'charged', credits: 1 });
      expect(await reserve('b', 1)).toEqual({ status: 'reserved', credits: 1 });
      // A stealth page costs 5 more than reserved; only 8 are left.
      expect(await stores.creditLedger.settle('b', 10)).toBe(9);
      expect(await stores.teams.get('t')).toMatchObject({ creditsUsed: 10, creditsLeft: 0 });
      expect(await reserve('c', 1)).toEqual({ status: 'insufficient' });

      await stores.teams.configure('t', { creditAllowance: 13 });
      expect(await reserve('d', 2)).toEqual({ status: 'reserved', credits: 2 });
      expect(await stores.creditLedger.release('d')).toBe(true);
      expect(await stores.creditLedger.release('d')).toBe(false);
      expect(await stores.teams.get('t')).toMatchObject({ creditsUsed: 10, creditsLeft: 3 });

      expect(await reserve('e', 3)).toEqual({ status: 'reserved', credits: 3 });
      expect(await stores.creditLedger.releaseStale(new Date(Date.now() + 1000))).toBe(1);
      expect(await stores.teams.get('t')).toMatchObject({ creditsUsed: 10, creditsLeft: 3 });
      expect(await stores.creditLedger.reconcile('t')).toBe(10);
    });

    it('charges unlimited teams without a bound, and a lowered allowance stops them', async () => {
      await stores.teams.create({ id: 'free' });
      for (let i = 0; i < 5; i += 1)
        expect(
          await stores.creditLedger.charge({ key: `map:${i}`, teamId: 'free', credits: 3, reason: 'map' }),
        ).toBe(true);
      expect((await stores.teams.get('free'))?.creditsUsed).toBe(15);
      await stores.teams.configure('free', { creditAllowance: 16 });
      expect((await stores.teams.get('free'))?.creditsLeft).toBe(1);
      // Work that is done already is charged what is left, never below zero.
      expect(
        await stores.creditLedger.charge({ key: 'map:5', teamId: 'free', credits: 3, reason: 'map' }),
      ).toBe(true);
      expect(await stores.teams.get('free')).toMatchObject({ creditsUsed: 16, creditsLeft: 0 });
      await stores.teams.configure('free', { creditAllowance: null });
      expect(
        await stores.creditLedger.reserve({ key: 'x', teamId: 'free', credits: 5, reason: 'scrape' }),
      ).toEqual({
        status: 'reserved',
        credits: 5,
      });
    });

    it('gives a team stored before balances existed its balance', async () => {
      // A team as the store held it before `creditsLeft`.
      await stores.teams.ensure({ id: 'old', name: 'Old' });
      await stores.teams.configure('old', { creditAllowance: 4 });
      expect((await stores.teams.get('old'))?.creditsLeft).toBe(4);
      expect(await stores.teams.takeCredits('nobody-yet', 2)).toBe(true);
      expect(await stores.teams.get('nobody-yet')).toMatchObject({ creditAllowance: null, creditsUsed: 2 });
    });

    it('creates keys that are shown once, lists them by id, and revokes them', async () => {
      await stores.teams.create({ id: 'acme' });
      const { apiKey, key } = await stores.apiKeys.create({ teamId: 'acme', label: 'ci' });
      expect(isGeneratedApiKey(apiKey)).toBe(true);
      expect(await stores.apiKeys.findTeamId(apiKey)).toBe('acme');
      const listed = await stores.apiKeys.list({ teamId: 'acme' });
      expect(listed).toEqual([expect.objectContaining({ keyId: key.keyId, label: 'ci', teamId: 'acme' })]);
      expect(JSON.stringify(listed)).not.toContain(apiKey.slice(10));
      expect(await stores.apiKeys.revokeById(key.keyId)).toMatchObject({ keyId: key.keyId });
      expect(await stores.apiKeys.revokeById(key.keyId)).toBeUndefined();
      expect(await stores.apiKeys.findTeamId(apiKey)).toBeUndefined();
    });

    it('retires the previous API_KEY when the configured key changes', async () => {
      await stores.apiKeys.setConfigured({ apiKey: 'first-configured-key', teamId: 'default' });
      await stores.apiKeys.setConfigured({ apiKey: 'second-configured-key', teamId: 'default' });
      expect(await stores.apiKeys.findTeamId('first-configured-key')).toBeUndefined();
      expect(await stores.apiKeys.findTeamId('second-configured-key')).toBe('default');
      await stores.apiKeys.setConfigured({ apiKey: 'first-configured-key', teamId: 'default' });
      expect(await stores.apiKeys.findTeamId('first-configured-key')).toBe('default');
      expect(await stores.apiKeys.findTeamId('second-configured-key')).toBeUndefined();
    });

    it('counts requests per team and minute', async () => {
      const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000);
      const counts = await Promise.all(Array.from({ length: 10 }, () => stores.rateWindows.hit('t', now)));
      expect(counts.map((hit) => hit.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(counts[0]?.resetsAt.getTime()).toBe(now.getTime() + 50_000);
      expect((await stores.rateWindows.hit('other', now)).count).toBe(1);
      expect((await stores.rateWindows.hit('t', new Date(now.getTime() + 60_000))).count).toBe(1);
    });
  });
});
