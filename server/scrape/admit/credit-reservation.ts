import { randomUUID } from 'node:crypto';
import { asksInjectionScreen } from '../../../shared/api/v2/prompt-injection-check';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { errors } from '../../platform/errors';
import type { Log } from '../../platform/log';
import { StoreUnavailableError, type CreditLedgerStore } from '../../platform/store';
import type { ScrapeDocument } from '../types';
import { chargeScrape } from './charge-scrape';
import { scrapeCredits } from './scrape-credits';

/** A page's credits, held while it runs; `settle` or `release` ends the hold. */
export interface CreditReservation {
  /** The scrape id the credits are booked under (`scrape:<id>`): the caller's, or one made here. */
  readonly scrapeId: string;
  /** The scrape answered: the reservation becomes the document's price. */
  settle(document: ScrapeDocument): Promise<void>;
  /** The scrape failed: the reservation is given back. */
  release(): Promise<void>;
}

/**
 * Reserves a page's credits before it runs, a 402 when the team has too few, so concurrent
 * requests cannot overspend. Scraping does not need the database: during an outage the page runs
 * without a reservation and is booked afterwards if it can be (chargeScrape).
 */
export async function reserveScrapeCredits(
  { creditLedger, log }: { creditLedger: CreditLedgerStore; log: Log },
  request: ScrapeRequestV2,
  { teamId, scrapeId = randomUUID() }: { teamId: string; scrapeId?: string | undefined },
): Promise<CreditReservation> {
  const key = `scrape:${scrapeId}`;
  let reserved = false;
  try {
    const reservation = await creditLedger.reserve({
      key,
      teamId,
      credits: scrapeCredits({ formats: request.formats, screensInjection: asksInjectionScreen(request) }),
      reason: 'scrape',
    });
    if (reservation.status === 'insufficient') throw errors.insufficientCredits(teamId);
    reserved = true;
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    log.warn('credit ledger unavailable; scrape runs without a reservation', { key, error: err.message });
  }
  return {
    scrapeId,
    async settle(document) {
      const credits = document.metadata.creditsUsed;
      if (!reserved) return chargeScrape({ creditLedger, log }, { teamId, scrapeId, credits });
      try {
        await creditLedger.settle(key, credits);
      } catch (err) {
        // The page is done and its credits reserved; the price difference waits for reconciliation.
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('credit ledger unavailable; scrape price not settled', { key, error: err.message });
      }
    },
    async release() {
      if (!reserved) return;
      await creditLedger
        .release(key)
        .catch((error: unknown) =>
          log.warn('could not release a credit reservation', { key, error: String(error) }),
        );
    },
  };
}
