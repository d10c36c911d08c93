import { beforeEach, describe, expect, it } from 'vitest';
import type { Stores } from '../../../server/platform/store/create-stores';
import { attributeUsage } from '../../../server/platform/store/stores/usage-attribution';
import { usagePeriods } from '../../../server/platform/teams/usage-reports';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';

describe.each(DATABASE_BACKENDS)('$kind database: usage by month and key', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;

    beforeEach(async () => {
      stores = await freshStores(harness);
    });

    it('follows every reservation, settlement, release and charge of the ledger', async () => {
      await stores.teams.create({ id: 't', creditAllowance: null });
      const march = new Date('2026-03-31T23:59:00Z');
      const april = new Date('2026-04-01T00:01:00Z');
      const ledger = stores.creditLedger;
      await attributeUsage({ teamId: 't', apiKey: 'fc-…aaaa' }, async () => {
        await ledger.reserve({ key: 'page:1', teamId: 't', credits: 5, reason: 'crawl', now: march });
        // Settled for less than reserved: the month keeps what was charged, in the month it started.
        expect(await ledger.settle('page:1', 2)).toBe(2);
        await ledger.reserve({ key: 'page:2', teamId: 't', credits: 4, reason: 'crawl', now: april });
        expect(await ledger.release('page:2')).toBe(true);
        await ledger.charge({ key: 'scrape:1', teamId: 't', credits: 3, reason: 'scrape', now: april });
        // The same charge again is no charge.
        await ledger.charge({ key: 'scrape:1', teamId: 't', credits: 3, reason: 'scrape', now: april });
      });
      // An explicit key wins over the attribution (a crawl's page, booked under the job's key).
      await ledger.charge({
        key: 'scrape:2',
        teamId: 't',
        credits: 7,
        reason: 'scrape',
        now: april,
        apiKey: 'fc-…bbbb',
      });
      await stores.usageMonths.add({ teamId: 't', apiKey: 'fc-…bbbb', at: april, tokens: 250 });

      const months = await stores.usageMonths.forTeam('t');
      const now = new Date('2026-04-15T00:00:00Z');
      expect(usagePeriods(months, 'credits', false, now)).toEqual([
        { startDate: '2026-03-01T00:00:00.000Z', endDate: '2026-03-31T23:59:59.999Z', used: 2 },
        { startDate: '2026-04-01T00:00:00.000Z', endDate: '2026-04-30T23:59:59.999Z', used: 10 },
      ]);
      expect(usagePeriods(months, 'credits', true, now).map(({ apiKey, used }) => [apiKey, used])).toEqual([
        ['fc-…aaaa', 2],
        ['fc-…aaaa', 3],
        ['fc-…bbbb', 7],
      ]);
      expect(usagePeriods(months, 'tokens', true, now)).toEqual([
        expect.objectContaining({ apiKey: 'fc-…bbbb', used: 250 }),
      ]);
      // The rollup and the ledger agree.
      expect(await ledger.reconcile('t')).toBe(12);
    });
  });
});
