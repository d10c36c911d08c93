import type { Log } from '../log';
import { StoreUnavailableError } from '../store/database';
import type { CreditLedgerStore } from '../store/stores/credit-ledger-store';
import type { Scraper } from './create-scraper';

/**
 * Books a finished scrape on the team's ledger under `scrape:<scrapeId>`, so a retried or repeated
 * booking of the same page is one charge. The page is already done: during a database outage the
 * charge is logged as lost rather than failing the caller's request.
 */
export async function chargeScrape(
  { creditLedger, log }: { creditLedger: CreditLedgerStore | undefined; log: Log },
  { teamId, scrapeId, credits }: { teamId: string; scrapeId: string; credits: number },
): Promise<void> {
  if (creditLedger === undefined) return;
  try {
    await creditLedger.charge({ key: `scrape:${scrapeId}`, teamId, credits, reason: 'scrape' });
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    log.warn('credit ledger unavailable; scrape not charged', {
      teamId,
      scrapeId,
      credits,
      error: err.message,
    });
  }
}

/**
 * The scraper the API routes use: every scrape it answers is booked on the caller's ledger.
 * Crawl and batch jobs use the plain scraper and book their pages under their own keys.
 */
export function withCharging(
  scraper: Scraper,
  deps: { creditLedger: CreditLedgerStore | undefined; log: Log },
): Scraper {
  return {
    async scrape(...args: Parameters<Scraper['scrape']>) {
      const document = await scraper.scrape(...args);
      const { scrapeId, creditsUsed: credits } = document.metadata;
      await chargeScrape(deps, { teamId: args[1].teamId, scrapeId, credits });
      return document;
    },
  };
}
