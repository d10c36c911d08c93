import { AsyncLocalStorage } from 'node:async_hooks';
import { actionWaitMs } from '../../../shared/api/v2/actions';
import { clampTimerMs } from '../../platform/time';
import { errors } from '../../platform/errors';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';

/** v2 has no timeout default; Firecrawl's engines stop at 5 minutes, and so do we (docs/wire-contract.md §3.4). */
export const DEFAULT_SCRAPE_TIMEOUT_MS = 300_000;

const current = new AsyncLocalStorage<{ deadlineAt: number; teamId: string | undefined }>();

/**
 * When the scrape this code runs for must have answered (epoch ms), or undefined outside one.
 * The derivation pools read it, so that a page's formats are never made past its scrape's timeout:
 * the worker doing it is stopped then, not when it finishes.
 */
export function scrapeDeadline(): number | undefined {
  return current.getStore()?.deadlineAt;
}

/** The team the scrape this code runs for is for: the derivation pools take teams in turn. */
export function scrapeTeam(): string | undefined {
  return current.getStore()?.teamId;
}

/**
 * Runs one scrape (`work`) so that it answers within its `timeout` (plus the time its wait actions
 * ask for, as in Firecrawl): whatever the path (HTTP fast path, cache, browser, derivation,
 * formats), a scrape still running then fails with 408 SCRAPE_TIMEOUT, and the derivation it waits
 * for is stopped. A scrape that already runs under a deadline (a parse's, a job's) keeps the earlier one.
 */
export function runUnderScrapeDeadline<T>(
  request: ScrapeRequestV2,
  teamId: string,
  work: () => Promise<T>,
): Promise<T> {
  const budgetMs = (request.timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS) + actionWaitMs(request.actions ?? []);
  const outer = scrapeDeadline();
  const deadlineAt = Math.min(Date.now() + budgetMs, outer ?? Infinity);
  return current.run({ deadlineAt, teamId }, () => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(errors.scrapeTimeout()), clampTimerMs(deadlineAt - Date.now()));
    });
    const running = work();
    // The losing side of the race must not surface as an unhandled rejection.
    running.catch(() => undefined);
    return Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
  });
}

/** Runs `work` for `teamId` under a deadline of its own (a parse's), which scrapes inside it keep. */
export function runWithDeadline<T>(
  deadlineAt: number,
  work: () => Promise<T>,
  teamId: string | undefined = scrapeTeam(),
): Promise<T> {
  return current.run({ deadlineAt: Math.min(deadlineAt, scrapeDeadline() ?? Infinity), teamId }, work);
}
