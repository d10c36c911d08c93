import type { Log } from '../log';

/**
 * A value read from the store for a gauge, at most once per `maxAgeMs` however often /metrics is
 * scraped, and never failing the scrape: while the store does not answer (an error, or no answer
 * within `waitMs`), the last value stands, and the failure is logged once until a read succeeds.
 */
export function createCachedReading<T>({
  read,
  what,
  log,
  maxAgeMs,
  waitMs,
  now = Date.now,
}: {
  read(): Promise<T>;
  /** For the log: what the reading is. */
  what: string;
  log: Log;
  maxAgeMs: number;
  waitMs: number;
  now?: () => number;
}): () => Promise<T | undefined> {
  let last: T | undefined;
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  let failing = false;

  const refresh = () => {
    reading ??= read()
      .then((value) => {
        last = value;
        readAt = now();
        if (failing) log.info('metrics: store reading recovered', { what });
        failing = false;
      })
      .catch((err: unknown) => {
        // Retried at the next scrape rather than after maxAgeMs: the store may be back by then.
        if (!failing)
          log.warn('metrics: store reading failed; keeping its last value', { what, error: String(err) });
        failing = true;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  return async () => {
    if (now() - readAt < maxAgeMs) return last;
    let timer: NodeJS.Timeout | undefined;
    // A read that outlasts the wait still lands in `last` for the next scrape.
    await Promise.race([
      refresh(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
    return last;
  };
}
