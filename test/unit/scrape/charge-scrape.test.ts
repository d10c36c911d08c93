import { describe, expect, it } from 'vitest';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';
import { silentLog } from '../../../server/platform/log/log';
import { withCharging } from '../../../server/scrape/charge-scrape';
import type { Scraper } from '../../../server/scrape/create-scraper';
import type { ScrapeDocument } from '../../../server/scrape/scrape-document';
import { StoreUnavailableError } from '../../../server/platform/store/database';
import type { CreditLedgerStore } from '../../../server/platform/store/stores/credit-ledger-store';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';

const embedded = useEmbeddedStores();

const document = (scrapeId: string, creditsUsed: number): ScrapeDocument => ({
  metadata: {
    sourceURL: 'https://a.test/',
    url: 'https://a.test/',
    statusCode: 200,
    scrapeId,
    creditsUsed,
    proxyUsed: 'basic',
  },
});
const scraperAnswering = (answer: ScrapeDocument): Scraper => ({ scrape: async () => answer });
const request = ScrapeRequestV2.parse({ url: 'https://a.test/' });

describe('withCharging', () => {
  it('books each scrape once under scrape:<id> on the caller’s team', async () => {
    const scraper = withCharging(scraperAnswering(document('s-1', 5)), {
      creditLedger: embedded.stores.creditLedger,
      log: silentLog,
    });
    await scraper.scrape(request, { teamId: 'team-c', scrapeId: 's-1' });
    await scraper.scrape(request, { teamId: 'team-c', scrapeId: 's-1' });
    const entries = await embedded.stores.creditLedger.entriesForTeam('team-c');
    expect(entries.map(({ _id, credits, state }) => ({ _id, credits, state }))).toEqual([
      { _id: 'scrape:s-1', credits: 5, state: 'charged' },
    ]);
  });

  it('refuses with 402 before scraping when the team’s allowance is spent', async () => {
    await embedded.stores.teams.create({ id: 'poor', creditAllowance: 1 });
    let ran = 0;
    const scraper = withCharging(
      { scrape: async () => ((ran += 1), document('s-3', 1)) },
      { creditLedger: embedded.stores.creditLedger, log: silentLog },
    );
    await scraper.scrape(request, { teamId: 'poor' });
    await expect(scraper.scrape(request, { teamId: 'poor' })).rejects.toMatchObject({ status: 402 });
    expect(ran).toBe(1);
    expect(await embedded.stores.teams.get('poor')).toMatchObject({ creditsUsed: 1, creditsLeft: 0 });
  });

  it('gives the reservation back when the scrape fails', async () => {
    await embedded.stores.teams.create({ id: 'failing', creditAllowance: 5 });
    const scraper = withCharging(
      { scrape: () => Promise.reject(new Error('browser went away')) },
      { creditLedger: embedded.stores.creditLedger, log: silentLog },
    );
    await expect(scraper.scrape(request, { teamId: 'failing' })).rejects.toThrow('browser went away');
    expect(await embedded.stores.teams.get('failing')).toMatchObject({ creditsUsed: 0, creditsLeft: 5 });
    expect(await embedded.stores.creditLedger.entriesForTeam('failing')).toEqual([]);
  });

  it('answers the scrape when the ledger is unreachable', async () => {
    const down = {
      ...embedded.stores.creditLedger,
      reserve: () => Promise.reject(new StoreUnavailableError('connection refused')),
      charge: () => Promise.reject(new StoreUnavailableError('connection refused')),
    } as CreditLedgerStore;
    const scraper = withCharging(scraperAnswering(document('s-2', 1)), {
      creditLedger: down,
      log: silentLog,
    });
    await expect(scraper.scrape(request, { teamId: 'team-c' })).resolves.toMatchObject({
      metadata: { scrapeId: 's-2' },
    });
  });
});
