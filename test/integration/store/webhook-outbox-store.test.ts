import { beforeEach, describe, expect, it } from 'vitest';
import { purgeExpired, type Stores } from '../../../server/platform/store/create-stores';
import { WEBHOOK_RETENTION_MS } from '../../../server/platform/store/stores/webhook-outbox-store';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';

const BASE_MS = Math.floor(Date.now() / 1000) * 1000;
const at = (seconds: number) => new Date(BASE_MS + seconds * 1000);
const delivery = (id: string) => ({
  _id: id,
  teamId: 't',
  url: 'https://hooks.test/in',
  headers: { 'x-a': '1' },
  body: `{"id":"${id}"}`,
});

describe.each(DATABASE_BACKENDS)('$kind database: webhook outbox and crawl notes', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;

    beforeEach(async () => {
      stores = await freshStores(harness);
    });

    it('enqueues an event once, whatever its key is enqueued as again', async () => {
      expect(await stores.webhookOutbox.enqueue(delivery('job:page:1'), at(0))).toBe(true);
      expect(await stores.webhookOutbox.enqueue(delivery('job:page:1'), at(1))).toBe(false);
      expect((await stores.webhookOutbox.get('job:page:1'))?.state).toBe('pending');
    });

    it('leases due deliveries oldest first, and fences completion by the lease token', async () => {
      await stores.webhookOutbox.enqueue(delivery('b'), at(2));
      await stores.webhookOutbox.enqueue(delivery('a'), at(1));
      const first = await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(3) });
      expect(first?._id).toBe('a');
      expect(first?.attempts).toBe(1);
      expect((await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(3) }))?._id).toBe('b');
      expect(await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(3) })).toBeUndefined();
      expect(await stores.webhookOutbox.markDelivered('a', 'not-the-token', at(4))).toBe(false);
      expect(await stores.webhookOutbox.markDelivered('a', first!.leaseToken!, at(4))).toBe(true);
      expect((await stores.webhookOutbox.get('a'))?.state).toBe('delivered');
    });

    it('retries at the given time, gives up without one, and re-leases what a dead sender held', async () => {
      await stores.webhookOutbox.enqueue(delivery('x'), at(0));
      const claim = await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(0) });
      expect(await stores.webhookOutbox.markFailed('x', claim!.leaseToken!, 'HTTP 500', at(60), at(1))).toBe(
        true,
      );
      expect(await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(59) })).toBeUndefined();
      const again = await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(60) });
      expect(again).toMatchObject({ _id: 'x', attempts: 2, lastError: 'HTTP 500' });
      // The sender died holding it: the lease runs out and another sender takes it.
      const stolen = await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(71) });
      expect(stolen?.attempts).toBe(3);
      expect(await stores.webhookOutbox.markDelivered('x', again!.leaseToken!, at(72))).toBe(false);
      expect(
        await stores.webhookOutbox.markFailed('x', stolen!.leaseToken!, 'HTTP 404', undefined, at(72)),
      ).toBe(true);
      expect((await stores.webhookOutbox.get('x'))?.state).toBe('dead');
      expect(await stores.webhookOutbox.claimDue({ leaseMs: 10_000, now: at(999) })).toBeUndefined();
    });

    it('purges deliveries past retention', async () => {
      await stores.webhookOutbox.enqueue(delivery('old'), at(0));
      await stores.webhookOutbox.enqueue(delivery('new'), at(100));
      await purgeExpired(stores, new Date(at(50).getTime() + WEBHOOK_RETENTION_MS));
      expect(await stores.webhookOutbox.get('old')).toBeUndefined();
      expect(await stores.webhookOutbox.get('new')).toBeDefined();
    });

    it('notes robots-blocked links once each and idempotency keys once ever', async () => {
      await stores.crawlNotes.noteRobotsBlocked('j', 'k1', 'https://s.test/p1', at(0));
      await stores.crawlNotes.noteRobotsBlocked('j', 'k1', 'https://s.test/p1', at(1));
      await stores.crawlNotes.noteRobotsBlocked('j', 'k2', 'https://s.test/p2', at(2));
      await stores.crawlNotes.noteRobotsBlocked('other', 'k1', 'https://s.test/p1', at(2));
      expect(await stores.crawlNotes.robotsBlocked('j')).toEqual(['https://s.test/p1', 'https://s.test/p2']);
      expect(await stores.crawlNotes.claimIdempotencyKey('t', 'key', 'j1')).toBe(true);
      expect(await stores.crawlNotes.claimIdempotencyKey('t', 'key', 'j2')).toBe(false);
      expect(await stores.crawlNotes.claimIdempotencyKey('u', 'key', 'j3')).toBe(true);
    });

    it('keeps one webhook secret per team, made on first use', async () => {
      await stores.teams.ensure({ id: 't', name: 'T' });
      const secret = await stores.teams.webhookSecret('t');
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(await stores.teams.webhookSecret('t')).toBe(secret);
    });
  });
});
