import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/log';
import { withCharging } from '../../../server/scrape/charge-scrape';
import type { Scraper } from '../../../server/scrape/create-scraper';
import type { ScrapeDocument } from '../../../server/scrape/scrape-document';
import { createStores, ensureIndexes, type Stores } from '../../../server/store/create-stores';
import { StoreUnavailableError, type Database } from '../../../server/store/database';
import { createEmbeddedDatabase } from '../../../server/store/embedded/create-embedded-database';
import type { CreditLedgerStore } from '../../../server/store/stores/credit-ledger-store';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';

let database: Database;
let stores: Stores;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-charge-'));
  database = await createEmbeddedDatabase({ dir, log: silentLog });
  stores = createStores(database);
  await ensureIndexes(stores);
});
afterAll(async () => {
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

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
      creditLedger: stores.creditLedger,
      log: silentLog,
    });
    await scraper.scrape(request, { teamId: 'team-c' });
    await scraper.scrape(request, { teamId: 'team-c' });
    const entries = await stores.creditLedger.entriesForTeam('team-c');
    expect(entries.map(({ _id, credits }) => ({ _id, credits }))).toEqual([
      { _id: 'scrape:s-1', credits: 5 },
    ]);
  });

  it('answers the scrape when the ledger is unreachable', async () => {
    const down = {
      ...stores.creditLedger,
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
