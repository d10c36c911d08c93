import { describe, expect, it } from 'vitest';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';
import { silentLog } from '../../../server/platform/log/log';
import { admissionRules } from '../../../server/scrape/admit/admission-rules';
import { admitScrape } from '../../../server/scrape/admit/admit-scrape';
import type { Scraper } from '../../../server/scrape/types/scraper';
import type { ScrapeDocument } from '../../../server/scrape/types/scrape-document';
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

/** The scraper booked as an API scrape is (admit/admit-scrape.ts, create-scraper.ts). */
function withCharging(scraper: Scraper, { creditLedger }: { creditLedger: CreditLedgerStore }): Scraper {
  return {
    async scrape(request, context) {
      const admission = await admitScrape(
        { creditLedger, log: silentLog },
        admissionRules('api'),
        request,
        context,
      );
      let document: ScrapeDocument;
      try {
        document = await scraper.scrape(request, { ...context, scrapeId: admission.scrapeId ?? '' });
      } catch (err) {
        await admission.release();
        throw err;
      }
      await admission.settle(document);
      return document;
    },
  };
}

describe('the credits of an API scrape', () => {
  it('books each scrape once under scrape:<id> on the caller’s team', async () => {
    const scraper = withCharging(scraperAnswering(document('s-1', 5)), {
      creditLedger: embedded.stores.creditLedger,
    });
    await scraper.scrape(request, { teamId: 'team-c', admission: 'api', scrapeId: 's-1' });
    await scraper.scrape(request, { teamId: 'team-c', admission: 'api', scrapeId: 's-1' });
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
      { creditLedger: embedded.stores.creditLedger },
    );
    await scraper.scrape(request, { teamId: 'poor', admission: 'api' });
    await expect(scraper.scrape(request, { teamId: 'poor', admission: 'api' })).rejects.toMatchObject({
      kind: 'insufficient-credits',
    });
    expect(ran).toBe(1);
    expect(await embedded.stores.teams.get('poor')).toMatchObject({ creditsUsed: 1, creditsLeft: 0 });
  });

  it('gives the reservation back when the scrape fails', async () => {
    await embedded.stores.teams.create({ id: 'failing', creditAllowance: 5 });
    const scraper = withCharging(
      { scrape: () => Promise.reject(new Error('browser went away')) },
      { creditLedger: embedded.stores.creditLedger },
    );
    await expect(scraper.scrape(request, { teamId: 'failing', admission: 'api' })).rejects.toThrow(
      'browser went away',
    );
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
    });
    await expect(scraper.scrape(request, { teamId: 'team-c', admission: 'api' })).resolves.toMatchObject({
      metadata: { scrapeId: 's-2' },
    });
  });
});
