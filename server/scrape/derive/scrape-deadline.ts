import { AsyncLocalStorage } from 'node:async_hooks';
import { actionWaitMs } from '../../../shared/api/v2/actions';
import { clampTimerMs } from '../../platform/time';
import { errors } from '../../platform/errors';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { CONTINUED_WORK_CEILING_MS, WorkContinues } from './work-continues';

/** v2 has no timeout default; Firecrawl's engines stop at 5 minutes, and so do we (docs/wire-contract.md §3.4). */
export const DEFAULT_SCRAPE_TIMEOUT_MS = 300_000;

/**
 * A scrape whose caller can come back for it (a single API scrape): once its document is being
 * read, the work may go on past the deadline, up to `ceilingAt` (work-continues.ts).
 */
interface Continuation {
  ceilingAt: number;
  /** A document's derivation has started: past the deadline, the scrape goes on. */
  documentStarted: boolean;
}

const current = new AsyncLocalStorage<{
  deadlineAt: number;
  teamId: string | undefined;
  continuation?: Continuation | undefined;
}>();

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
  /** The caller can come back for the result: a document being read then goes on past the deadline (WorkContinues). */
  continuable = false,
): Promise<T> {
  const budgetMs = (request.timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS) + actionWaitMs(request.actions ?? []);
  const outer = scrapeDeadline();
  const deadlineAt = Math.min(Date.now() + budgetMs, outer ?? Infinity);
  const continuation: Continuation | undefined = continuable
    ? { ceilingAt: Math.max(deadlineAt, Date.now() + CONTINUED_WORK_CEILING_MS), documentStarted: false }
    : undefined;
  return current.run({ deadlineAt, teamId, continuation }, () => {
    let timer: NodeJS.Timeout | undefined;
    const running = work();
    // The losing side of the race must not surface as an unhandled rejection.
    running.catch(() => undefined);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            continuation?.documentStarted === true ? new WorkContinues(running) : errors.scrapeTimeout(),
          ),
        clampTimerMs(deadlineAt - Date.now()),
      );
    });
    return Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
  });
}

/**
 * Called as a document's derivation starts: a scrape that may go on (runUnderScrapeDeadline's
 * `continuable`) now will, so the derivation and what follows it run to the continuation's
 * ceiling instead of the caller's deadline. Elsewhere, nothing changes.
 */
export function documentWorkStarts(): void {
  const store = current.getStore();
  if (store?.continuation === undefined) return;
  store.continuation.documentStarted = true;
  store.deadlineAt = Math.max(store.deadlineAt, store.continuation.ceilingAt);
}

/** Runs `work` for `teamId` under a deadline of its own (a parse's), which scrapes inside it keep. */
export function runWithDeadline<T>(
  deadlineAt: number,
  work: () => Promise<T>,
  teamId: string | undefined = scrapeTeam(),
): Promise<T> {
  return current.run({ deadlineAt: Math.min(deadlineAt, scrapeDeadline() ?? Infinity), teamId }, work);
}
