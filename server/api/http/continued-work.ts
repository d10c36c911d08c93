import { createHash } from 'node:crypto';
import { clampTimerMs } from '../../platform/time';
import { WorkContinues } from '../../scrape';

/**
 * Work that outlived its request (a document still being read at the caller's timeout), by the
 * request that started it, so that the same request sent again joins it (Firecrawl's clients
 * resend the very same request after a `processing_continues` 408: their auto-resume adopts the
 * work by its content, with no id) instead of starting it again and charging twice.
 */
export interface ContinuedWork {
  /**
   * Runs `start` for this team's request, unless the same request's work is going on or has just
   * ended unclaimed: then answers with its outcome, waiting at most `waitMs` (the new request's
   * timeout) before answering 408 `processing_continues` again.
   */
  run<T>(teamId: string, request: unknown, waitMs: number, start: () => Promise<T>): Promise<T>;
  /** Entries held (going on, or ended and not yet claimed). */
  size(): number;
}

interface Entry {
  running: Promise<unknown>;
  /** When the outcome stops being kept for a caller who never came back. */
  forgetTimer?: NodeJS.Timeout;
}

/** An outcome nobody came back for is kept this long after the work ends (the clients wait ≤ 10 minutes between tries). */
export const UNCLAIMED_OUTCOME_MS = 10 * 60_000;
/** The most pieces of work kept at once; past it the oldest is forgotten (its work still ends on its own). */
export const MAX_CONTINUED_WORK = 1_000;

/** The request as one key: the team, and a digest of the request as its schema read it (its fields in schema order). */
export function continuedWorkKey(teamId: string, request: unknown): string {
  return `${teamId}\n${createHash('sha256')
    .update(JSON.stringify(request) ?? '')
    .digest('hex')}`;
}

export function createContinuedWork({
  keepMs = UNCLAIMED_OUTCOME_MS,
  maxEntries = MAX_CONTINUED_WORK,
}: { keepMs?: number; maxEntries?: number } = {}): ContinuedWork {
  const entries = new Map<string, Entry>();

  const forget = (key: string, entry: Entry) => {
    clearTimeout(entry.forgetTimer);
    if (entries.get(key) === entry) entries.delete(key);
  };

  const hold = (key: string, running: Promise<unknown>) => {
    const entry: Entry = { running };
    if (entries.size >= maxEntries) {
      const oldest = entries.entries().next().value;
      if (oldest !== undefined) forget(oldest[0], oldest[1]);
    }
    entries.set(key, entry);
    const ended = () => {
      entry.forgetTimer = setTimeout(() => forget(key, entry), clampTimerMs(keepMs));
      entry.forgetTimer.unref();
    };
    running.then(ended, ended);
  };

  /** The work's outcome within `waitMs`, handed over once (the entry is then forgotten), or another 408. */
  const join = async <T>(key: string, entry: Entry, waitMs: number): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const stillRunning = Symbol('still running');
    const outcome = await Promise.race([
      entry.running.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      new Promise<typeof stillRunning>((resolve) => {
        timer = setTimeout(() => resolve(stillRunning), clampTimerMs(waitMs));
      }),
    ]).finally(() => clearTimeout(timer));
    if (outcome === stillRunning) throw new WorkContinues(entry.running);
    forget(key, entry);
    if ('error' in outcome) throw outcome.error;
    return outcome.value as T;
  };

  return {
    async run<T>(teamId: string, request: unknown, waitMs: number, start: () => Promise<T>): Promise<T> {
      const key = continuedWorkKey(teamId, request);
      const going = entries.get(key);
      if (going !== undefined) return join<T>(key, going, waitMs);
      try {
        return await start();
      } catch (err) {
        if (err instanceof WorkContinues) hold(key, err.running);
        throw err;
      }
    },
    size: () => entries.size,
  };
}
