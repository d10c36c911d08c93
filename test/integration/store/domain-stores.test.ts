import { beforeEach, describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { purgeExpired, type Stores } from '../../../server/platform/store/create-stores';
import { DuplicateKeyError } from '../../../server/platform/store/database';
import { apiKeyDigest } from '../../../server/platform/store/stores/api-key-store';
import { CACHE_RETENTION_MS, PUBLIC_SCOPE } from '../../../server/platform/store/stores/cache-store';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';

const capture = (statusCode: number, marker: string): PageCapture => ({
  url: 'https://site.test/',
  statusCode,
  rawHtml: `<p>${marker}</p>`,
  renderedHtml: `<p>${marker}</p>`,
});
// Times near the real now: the backends' TTL indexes really remove documents that expired in the past.
const BASE_MS = Math.floor(Date.now() / 1000) * 1000;
const at = (seconds: number) => new Date(BASE_MS + seconds * 1000);

describe.each(DATABASE_BACKENDS)('$kind database: domain stores', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;

    beforeEach(async () => {
      stores = await freshStores(harness);
    });

    describe('cache', () => {
      it('serves the newest fresh success, unless three newer captures failed', async () => {
        const put = (seconds: number, status: number) =>
          stores.cache.put({
            key: 'k',
            scope: PUBLIC_SCOPE,
            url: 'https://site.test',
            capture: capture(status, `${seconds}`),
            now: at(seconds),
          });
        await put(1, 200);
        await put(2, 500);
        await put(3, 503);
        const choice = await stores.cache.findFresh({ key: 'k', scopes: [PUBLIC_SCOPE], notBefore: at(0) });
        expect(choice?.capture.rawHtml).toBe('<p>1</p>');
        expect(choice?.cachedAt).toEqual(at(1));
        await put(4, 404);
        const failing = await stores.cache.findFresh({ key: 'k', scopes: [PUBLIC_SCOPE], notBefore: at(0) });
        expect(failing?.capture.rawHtml).toBe('<p>4</p>');
        expect(
          await stores.cache.findFresh({ key: 'k', scopes: [PUBLIC_SCOPE], notBefore: at(5) }),
        ).toBeUndefined();
      });

      it("keeps a team's logged-in captures away from other teams", async () => {
        await stores.cache.put({
          key: 'k',
          scope: 'team-a',
          url: 'u',
          capture: capture(200, 'secret'),
          now: at(1),
        });
        expect(
          await stores.cache.findFresh({ key: 'k', scopes: [PUBLIC_SCOPE, 'team-b'], notBefore: at(0) }),
        ).toBeUndefined();
        const own = await stores.cache.findFresh({
          key: 'k',
          scopes: [PUBLIC_SCOPE, 'team-a'],
          notBefore: at(0),
        });
        expect(own?.capture.rawHtml).toBe('<p>secret</p>');
      });

      it('purges entries past retention', async () => {
        await stores.cache.put({
          key: 'old',
          scope: PUBLIC_SCOPE,
          url: 'u',
          capture: capture(200, 'old'),
          now: at(0),
        });
        await stores.cache.put({
          key: 'new',
          scope: PUBLIC_SCOPE,
          url: 'u',
          capture: capture(200, 'new'),
          now: at(100),
        });
        const removed = await purgeExpired(stores, new Date(at(50).getTime() + CACHE_RETENTION_MS));
        expect(removed).toBe(1);
        expect(
          await stores.cache.findFresh({ key: 'old', scopes: [PUBLIC_SCOPE], notBefore: at(0) }),
        ).toBeUndefined();
        expect(
          await stores.cache.findFresh({ key: 'new', scopes: [PUBLIC_SCOPE], notBefore: at(0) }),
        ).toBeDefined();
      });
    });

    describe('results', () => {
      it('keeps a document for a day, once per id, in job order', async () => {
        await stores.results.put({
          id: 'r2',
          teamId: 't',
          jobId: 'j',
          sequence: 2,
          document: { n: 2 },
          now: at(0),
        });
        await stores.results.put({
          id: 'r1',
          teamId: 't',
          jobId: 'j',
          sequence: 1,
          document: { n: 1 },
          now: at(0),
        });
        await stores.results.put({
          id: 'r1',
          teamId: 't',
          jobId: 'j',
          sequence: 1,
          document: { n: 1 },
          now: at(0),
        });
        expect(await stores.results.countForJob('j')).toBe(2);
        expect((await stores.results.listForJob('j', { limit: 10 })).map((r) => r.document)).toEqual([
          { n: 1 },
          { n: 2 },
        ]);
        expect((await stores.results.listForJob('j', { skip: 1, limit: 10 })).map((r) => r._id)).toEqual([
          'r2',
        ]);
        expect((await stores.results.get('r1', at(60)))?.document).toEqual({ n: 1 });
        expect(await stores.results.get('r1', new Date(at(0).getTime() + 25 * 3600_000))).toBeUndefined();
      });
    });

    describe('jobs', () => {
      it('moves between states only from the expected ones and counts atomically', async () => {
        await stores.jobs.create({
          _id: 'job',
          teamId: 't',
          kind: 'crawl',
          request: { url: 'https://site.test' },
        });
        expect(await stores.jobs.listActive('t')).toHaveLength(1);
        await Promise.all(
          Array.from({ length: 10 }, () => stores.jobs.count('job', { completed: 1, creditsUsed: 1 })),
        );
        expect(await stores.jobs.get('job')).toMatchObject({
          completed: 10,
          creditsUsed: 10,
          status: 'scraping',
        });
        // Two instances finishing the same job set the same total; neither adds to the other's.
        await Promise.all([stores.jobs.setCreditsUsed('job', 12), stores.jobs.setCreditsUsed('job', 12)]);
        expect(await stores.jobs.get('job')).toMatchObject({ completed: 10, creditsUsed: 12 });
        expect(await stores.jobs.transition('job', ['scraping'], 'cancelled')).toMatchObject({
          status: 'cancelled',
        });
        expect(await stores.jobs.transition('job', ['scraping'], 'completed')).toBeUndefined();
        expect(await stores.jobs.listActive('t')).toHaveLength(0);
      });
    });

    describe('page tasks', () => {
      const task = (urlKey: string) => ({
        jobId: 'job',
        teamId: 't',
        url: `https://site.test/${urlKey}`,
        urlKey,
        depth: 0,
      });

      it('holds one task per URL of a job', async () => {
        expect(await stores.pageTasks.enqueue(task('a'))).toBe(true);
        expect(await stores.pageTasks.enqueue(task('a'))).toBe(false);
        expect(await stores.pageTasks.enqueue({ ...task('a'), jobId: 'other' })).toBe(true);
      });

      it('adds many tasks in bulk, one per URL of a job, counting only those added', async () => {
        expect(await stores.pageTasks.enqueue(task('k1'))).toBe(true);
        const keys = Array.from({ length: 2_300 }, (_, i) => `k${i}`);
        // Spans chunks; k1 is there already and k5 comes twice.
        expect(await stores.pageTasks.enqueueMany([...keys, 'k5'].map(task), at(0))).toBe(2_299);
        expect(await stores.pageTasks.countInStates('job', ['queued'])).toBe(2_300);
        expect(await stores.pageTasks.enqueueMany(keys.slice(0, 10).map(task))).toBe(0);
        const claimed = await stores.pageTasks.claimNext({ owner: 'w', leaseMs: 1_000, now: at(1) });
        expect(claimed).toMatchObject({ jobId: 'job', state: 'leased', attempts: 1, depth: 0 });
      });

      it('leases each task to exactly one of many concurrent claimers', async () => {
        for (let i = 0; i < 12; i += 1) await stores.pageTasks.enqueue(task(`p${i}`), at(0));
        const claims = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            stores.pageTasks.claimNext({ owner: `w${i}`, leaseMs: 30_000, now: at(1) }),
          ),
        );
        const won = claims.filter((claim) => claim !== undefined);
        expect(won).toHaveLength(12);
        expect(new Set(won.map((claim) => claim?._id)).size).toBe(12);
      });

      it('fences completions and heartbeats with the lease token, and re-queues expired leases', async () => {
        await stores.pageTasks.enqueue(task('a'), at(0));
        const first = await stores.pageTasks.claimNext({ owner: 'w1', leaseMs: 10_000, now: at(1) });
        expect(first?.attempts).toBe(1);
        expect(
          await stores.pageTasks.claimNext({ owner: 'w2', leaseMs: 10_000, now: at(2) }),
        ).toBeUndefined();
        expect(await stores.pageTasks.heartbeat(first!._id, first!.leaseToken!, 10_000, at(5))).toBe(true);

        // The lease ran out (its browser died): another worker takes over, the old token is dead.
        const second = await stores.pageTasks.claimNext({ owner: 'w2', leaseMs: 10_000, now: at(16) });
        expect(second?._id).toBe(first?._id);
        expect(second?.attempts).toBe(2);
        expect(await stores.pageTasks.complete(first!._id, first!.leaseToken!, at(17))).toBe(false);
        expect(await stores.pageTasks.complete(second!._id, second!.leaseToken!, at(17))).toBe(true);
        expect((await stores.pageTasks.get(first!._id))?.state).toBe('done');
        expect(await stores.pageTasks.countInState('job', 'done')).toBe(1);
      });

      it('takes over an expired lease before queued tasks, however long these have been due', async () => {
        await stores.pageTasks.enqueue(task('a'), at(2));
        const stalled = await stores.pageTasks.claimNext({ owner: 'w1', leaseMs: 10_000, now: at(2) });
        await stores.pageTasks.enqueue(task('b'), at(0));
        const next = await stores.pageTasks.claimNext({ owner: 'w2', leaseMs: 10_000, now: at(16) });
        expect(next?._id).toBe(stalled?._id);
        expect((await stores.pageTasks.claimNext({ owner: 'w2', leaseMs: 10_000, now: at(16) }))?.url).toBe(
          task('b').url,
        );
      });

      it('retries a failed task later or fails it for good, and cancels what has not run', async () => {
        await stores.pageTasks.enqueue(task('a'), at(0));
        await stores.pageTasks.enqueue(task('b'), at(0));
        await stores.pageTasks.enqueue(task('c'), at(0));
        const a = await stores.pageTasks.claimNext({ owner: 'w', leaseMs: 10_000, now: at(1) });
        expect(
          await stores.pageTasks.fail(a!._id, a!.leaseToken!, 'net::ERR_FAILED', {
            retryAt: at(30),
            now: at(2),
          }),
        ).toBe(true);
        const b = await stores.pageTasks.claimNext({ owner: 'w', leaseMs: 10_000, now: at(3) });
        expect(b?._id).not.toBe(a?._id);
        expect(await stores.pageTasks.fail(b!._id, b!.leaseToken!, 'gone for good', { now: at(4) })).toBe(
          true,
        );
        expect((await stores.pageTasks.failedForJob('job')).map((t) => t.error)).toEqual(['gone for good']);
        expect(await stores.pageTasks.cancelJob('job', at(5))).toBe(2);
        expect(
          await stores.pageTasks.claimNext({ owner: 'w', leaseMs: 10_000, now: at(60) }),
        ).toBeUndefined();
      });
    });

    describe('map index', () => {
      it('records URLs once, keeps what it learnt, and lists them by scope', async () => {
        await stores.mapIndex.record(
          [
            {
              site: 'site.test',
              domain: 'site.test',
              url: 'https://site.test/b',
              scope: PUBLIC_SCOPE,
              title: 'B',
            },
          ],
          at(0),
        );
        await stores.mapIndex.record(
          [
            { site: 'site.test', domain: 'site.test', url: 'https://site.test/b', scope: PUBLIC_SCOPE },
            { site: 'site.test', domain: 'site.test', url: 'https://site.test/a', scope: PUBLIC_SCOPE },
            { site: 'site.test', domain: 'site.test', url: 'https://site.test/private', scope: 'team-a' },
          ],
          at(1),
        );
        const visible = await stores.mapIndex.list({ site: 'site.test', scopes: [PUBLIC_SCOPE], limit: 10 });
        expect(visible.map((entry) => [entry.url, entry.title])).toEqual([
          ['https://site.test/a', undefined],
          ['https://site.test/b', 'B'],
        ]);
        expect(
          await stores.mapIndex.list({ site: 'site.test', scopes: [PUBLIC_SCOPE, 'team-a'], limit: 10 }),
        ).toHaveLength(3);
      });
    });

    describe('change snapshots', () => {
      it('finds the latest earlier version per team, URL and tag', async () => {
        const snap = (teamId: string, tag: string | null, seconds: number, markdown: string) =>
          stores.changeSnapshots.put({
            teamId,
            url: 'https://site.test',
            tag,
            scrapedAt: at(seconds),
            statusCode: 200,
            markdown,
          });
        await snap('t', null, 1, 'one');
        await snap('t', null, 2, 'two');
        await snap('t', 'nightly', 3, 'tagged');
        await snap('other', null, 4, 'theirs');
        expect(
          (await stores.changeSnapshots.latest({ teamId: 't', url: 'https://site.test', tag: null }))
            ?.markdown,
        ).toBe('two');
        expect(
          (
            await stores.changeSnapshots.latest({
              teamId: 't',
              url: 'https://site.test',
              tag: null,
              before: at(2),
            })
          )?.markdown,
        ).toBe('one');
        expect(
          (await stores.changeSnapshots.latest({ teamId: 't', url: 'https://site.test', tag: 'nightly' }))
            ?.markdown,
        ).toBe('tagged');
        expect(
          await stores.changeSnapshots.latest({ teamId: 'nobody', url: 'https://site.test', tag: null }),
        ).toBeUndefined();
      });
    });

    describe('teams, keys and credits', () => {
      it('creates a team once and keeps its settings', async () => {
        await stores.teams.ensure({ id: 't', name: 'Team' });
        await stores.teams.configure('t', { creditAllowance: 100 });
        await stores.teams.ensure({ id: 't', name: 'Renamed?' });
        expect(await stores.teams.get('t')).toMatchObject({
          name: 'Team',
          creditAllowance: 100,
          creditsUsed: 0,
        });
      });

      it('stores only digests of keys, finds their team, and forgets revoked ones', async () => {
        await stores.apiKeys.add({ apiKey: 'fc-secret-key', teamId: 't', label: 'ci' });
        await stores.apiKeys.add({ apiKey: 'fc-secret-key', teamId: 'intruder', label: 'again' });
        expect(await stores.apiKeys.findTeamId('fc-secret-key')).toBe('t');
        const listed = await stores.apiKeys.listForTeam('t');
        expect(listed.map((key) => key._id)).toEqual([apiKeyDigest('fc-secret-key')]);
        expect(JSON.stringify(listed)).not.toContain('fc-secret-key');
        expect(await stores.apiKeys.revoke('fc-secret-key')).toBe(true);
        expect(await stores.apiKeys.findTeamId('fc-secret-key')).toBeUndefined();
      });

      it('charges each key once and keeps the team total in step with the ledger', async () => {
        await stores.teams.ensure({ id: 't', name: 'Team' });
        const attempts = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores.creditLedger.charge({ key: `scrape:${i % 5}`, teamId: 't', credits: 2, reason: 'scrape' }),
          ),
        );
        expect(attempts.filter(Boolean)).toHaveLength(5);
        expect((await stores.teams.get('t'))?.creditsUsed).toBe(10);
        expect(await stores.creditLedger.reconcile('t')).toBe(10);
        expect(await stores.creditLedger.entriesForTeam('t')).toHaveLength(5);
      });
    });

    describe('donated browsers', () => {
      it('registers a browser per device token and forgets it when revoked', async () => {
        const registration = {
          _id: 'b1',
          teamId: 't',
          tokenDigest: 'd1',
          label: 'laptop',
          allowedDomains: ['intranet.test'],
        };
        await stores.browserRegistrations.register(registration);
        await expect(
          stores.browserRegistrations.register({ ...registration, _id: 'b2' }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await stores.browserRegistrations.findByTokenDigest('d1'))?._id).toBe('b1');
        await stores.browserRegistrations.setAllowedDomains('b1', ['intranet.test', 'wiki.test']);
        expect((await stores.browserRegistrations.listForTeam('t'))[0]?.allowedDomains).toEqual([
          'intranet.test',
          'wiki.test',
        ]);
        expect(await stores.browserRegistrations.revoke('b1')).toBe(true);
        expect(await stores.browserRegistrations.revoke('b1')).toBe(false);
        expect(await stores.browserRegistrations.findByTokenDigest('d1')).toBeUndefined();
        expect((await stores.browserRegistrations.findAnyByTokenDigest('d1'))?.revokedAt).toBeInstanceOf(
          Date,
        );
      });

      it('names the revoked ones among connected browsers and records the terms they connect with', async () => {
        for (const id of ['b1', 'b2', 'b3']) {
          await stores.browserRegistrations.register({
            _id: id,
            teamId: 't',
            tokenDigest: `digest-${id}`,
            label: id,
            allowedDomains: [],
          });
        }
        await stores.browserRegistrations.revoke('b2');
        expect(await stores.browserRegistrations.revokedAmong(['b1', 'b2', 'b3'])).toEqual(['b2']);
        expect(await stores.browserRegistrations.revokedAmong([])).toEqual([]);
        await stores.browserRegistrations.recordTerms('b1', {
          allowedDomains: ['members.test'],
          allowJavascript: false,
          maxTabs: 2,
          enabled: true,
        });
        const b1 = await stores.browserRegistrations.get('b1');
        expect(b1).toMatchObject({ allowedDomains: ['members.test'], maxTabs: 2, enabled: true });
        expect(b1?.lastSeenAt).toBeInstanceOf(Date);
      });
    });

    describe('pairing codes', () => {
      it('pairs once per code, and tells an expired code from an unknown or used one', async () => {
        // Near the real clock: the backends' TTL index would remove codes that expired long ago.
        const now = new Date();
        await stores.pairingCodes.issue({ code: 'ABCD-EFGH', teamId: 't', ttlMs: 60_000, now });
        await stores.pairingCodes.issue({ code: 'OLD', teamId: 't', ttlMs: 60_000, now });
        const later = new Date(now.getTime() + 30_000);
        const attempts = await Promise.all(
          Array.from({ length: 5 }, () => stores.pairingCodes.spend('ABCD-EFGH', later)),
        );
        expect(attempts.filter((attempt) => 'teamId' in attempt)).toEqual([{ teamId: 't' }]);
        expect(await stores.pairingCodes.spend('ABCD-EFGH', later)).toEqual({ refused: 'invalid' });
        expect(await stores.pairingCodes.spend('NEVER-ISSUED', later)).toEqual({ refused: 'invalid' });
        const tooLate = new Date(now.getTime() + 61_000);
        expect(await stores.pairingCodes.spend('OLD', tooLate)).toEqual({ refused: 'expired' });
        expect(await stores.pairingCodes.purgeExpired(tooLate)).toBe(0);
        expect(await stores.pairingCodes.purgeExpired(new Date(now.getTime() + 2 * 86_400_000))).toBe(2);
      });
    });
  });
});
