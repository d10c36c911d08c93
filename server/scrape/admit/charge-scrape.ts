import type { Log } from '../../platform/log';
import { StoreUnavailableError, type CreditLedgerStore } from '../../platform/store';

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
