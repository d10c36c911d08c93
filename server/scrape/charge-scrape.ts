import { randomUUID } from 'node:crypto';
import { errors } from '../platform/errors/errors';
import type { Log } from '../platform/log/log';
import { StoreUnavailableError } from '../platform/store/database';
import type { CreditLedgerStore } from '../platform/store/stores/credit-ledger-store';
import type { Scraper } from './create-scraper';
import { scrapeCredits } from './scrape-credits';

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
 * The scraper the API routes use: the page's credits are reserved before it runs (a 402 when the
 * team has too few, so concurrent requests cannot overspend), the reservation becomes the real
 * price when the scrape answers, and is given back when it fails. Crawl and batch jobs use the
 * plain scraper and book their pages under their own keys.
 */
export function withCharging(
  scraper: Scraper,
  { creditLedger, log }: { creditLedger: CreditLedgerStore | undefined; log: Log },
): Scraper {
  return {
    async scrape(request, context) {
      if (creditLedger === undefined) return scraper.scrape(request, context);
      const scrapeId = context.scrapeId ?? randomUUID();
      const key = `scrape:${scrapeId}`;
      let reserved = false;
      try {
        const reservation = await creditLedger.reserve({
          key,
          teamId: context.teamId,
          credits: scrapeCredits({ formats: request.formats }),
          reason: 'scrape',
        });
        if (reservation.status === 'insufficient') throw errors.insufficientCredits(context.teamId);
        reserved = true;
      } catch (err) {
        // Scraping does not need the database: during an outage the page is booked afterwards if it can be.
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('credit ledger unavailable; scrape runs without a reservation', { key, error: err.message });
      }
      let document;
      try {
        document = await scraper.scrape(request, { ...context, scrapeId });
      } catch (err) {
        if (reserved)
          await creditLedger
            .release(key)
            .catch((error: unknown) =>
              log.warn('could not release a credit reservation', { key, error: String(error) }),
            );
        throw err;
      }
      const credits = document.metadata.creditsUsed;
      if (!reserved) {
        await chargeScrape({ creditLedger, log }, { teamId: context.teamId, scrapeId, credits });
        return document;
      }
      try {
        await creditLedger.settle(key, credits);
      } catch (err) {
        // The page is done and its credits reserved; the price difference waits for reconciliation.
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('credit ledger unavailable; scrape price not settled', { key, error: err.message });
      }
      return document;
    },
  };
}
