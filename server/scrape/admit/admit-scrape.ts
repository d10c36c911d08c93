import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { Log } from '../../platform/log';
import type { CreditLedgerStore } from '../../platform/store';
import type { TeamLimits } from '../../platform/teams';
import type { ScrapeDocument } from '../types';
import type { AdmissionRules } from './admission-rules';
import { type CreditReservation, reserveScrapeCredits } from './credit-reservation';

export interface AdmitDeps {
  /** The teams' concurrency slots; without them no scrape holds one. */
  teamLimits?: Pick<TeamLimits, 'admit'> | undefined;
  /** The credit ledger; without it no scrape is booked. */
  creditLedger?: CreditLedgerStore | undefined;
  log: Log;
}

/** A scrape let in: what it holds (a team slot, reserved credits), given back by `settle` or `release`. */
export interface Admission {
  /** The scrape id the page runs under: the caller's, or the one its credits were reserved under. */
  readonly scrapeId: string | undefined;
  /** The scrape answered: its credits become the document's price, then the team slot frees. */
  settle(document: ScrapeDocument): Promise<void>;
  /** The scrape failed: its credits are given back, then the team slot frees. */
  release(): Promise<void>;
}

/**
 * Lets a scrape in as its admission rules say: first one of the team's concurrency slots (429
 * beyond), then its credits (402 when short). Crawl and batch pages are booked by their job under
 * its own keys, search and map pages by their product: those hold nothing here.
 */
export async function admitScrape(
  { teamLimits, creditLedger, log }: AdmitDeps,
  rules: AdmissionRules,
  request: ScrapeRequestV2,
  { teamId, scrapeId }: { teamId: string; scrapeId?: string | undefined },
): Promise<Admission> {
  const freeSlot =
    rules.teamSlot && teamLimits !== undefined ? await teamLimits.admit(teamId) : () => undefined;
  let credits: CreditReservation | undefined;
  try {
    if (rules.reservesCredits && creditLedger !== undefined) {
      credits = await reserveScrapeCredits({ creditLedger, log }, request, { teamId, scrapeId });
    }
  } catch (err) {
    freeSlot();
    throw err;
  }
  return {
    scrapeId: credits?.scrapeId ?? scrapeId,
    async settle(document) {
      try {
        await credits?.settle(document);
      } finally {
        freeSlot();
      }
    },
    async release() {
      try {
        await credits?.release();
      } finally {
        freeSlot();
      }
    },
  };
}
