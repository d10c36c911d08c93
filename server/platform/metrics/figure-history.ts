import type { Log } from '../log';

/** One reading of some figures at `at` (ms since the epoch); a figure not read is absent. */
export interface FigureSample<F extends string> {
  at: number;
  values: Partial<Record<F, number>>;
}

/** The newest `capacity` items, oldest first; older ones are overwritten. */
export function createRing<T>(capacity: number) {
  const items: T[] = [];
  let next = 0;
  return {
    push(item: T) {
      if (items.length < capacity) items.push(item);
      else items[next] = item;
      next = (next + 1) % capacity;
    },
    items: (): T[] =>
      items.length < capacity ? [...items] : [...items.slice(next), ...items.slice(0, next)],
    get size() {
      return items.length;
    },
  };
}

/**
 * Figures over time, in memory: every `everyMs` `read` gives this moment's figures by scope (the
 * whole instance, a team, …), and each scope keeps the last `keepMs` of them in a ring of its own,
 * so memory is bounded by scopes × keepMs / everyMs. A scope `read` stops returning is forgotten
 * once its newest sample is older than `keepMs`. A reading that fails is skipped (logged once
 * until one succeeds); a reading still running when the next is due is not doubled.
 */
export function createFigureHistory<F extends string>({
  what,
  everyMs,
  keepMs,
  read,
  log,
  now = Date.now,
}: {
  /** For the log: what the figures are. */
  what: string;
  everyMs: number;
  keepMs: number;
  read(at: number): Promise<Map<string, Partial<Record<F, number>>>>;
  log: Log;
  now?: () => number;
}) {
  const capacity = Math.ceil(keepMs / everyMs) + 1;
  const scopes = new Map<string, ReturnType<typeof createRing<FigureSample<F>>>>();
  const newest = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  let failing = false;

  const sample = async () => {
    const at = now();
    try {
      const figures = await read(at);
      for (const [scope, values] of figures) {
        let ring = scopes.get(scope);
        if (ring === undefined) scopes.set(scope, (ring = createRing<FigureSample<F>>(capacity)));
        ring.push({ at, values });
        newest.set(scope, at);
      }
      if (failing) log.info('figure history: reading recovered', { what });
      failing = false;
    } catch (err) {
      if (!failing) log.warn('figure history: reading failed; skipping it', { what, error: String(err) });
      failing = true;
    }
    for (const [scope, at] of newest)
      if (now() - at > keepMs) {
        scopes.delete(scope);
        newest.delete(scope);
      }
  };

  const tick = () => {
    reading ??= sample().finally(() => {
      reading = undefined;
    });
    return reading;
  };

  return {
    everyMs,
    keepMs,
    /** Reads once now (also what the timer does). */
    tick,
    start() {
      if (timer !== undefined) return;
      void tick();
      timer = setInterval(() => void tick(), everyMs);
      // The history serves the console; it never keeps a process alive.
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await reading;
    },
    /** A scope's samples of the last `keepMs`, oldest first; none for a scope never read. */
    samples(scope: string): FigureSample<F>[] {
      const since = now() - keepMs;
      return (scopes.get(scope)?.items() ?? []).filter((item) => item.at >= since);
    },
  };
}

export type FigureHistory<F extends string> = ReturnType<typeof createFigureHistory<F>>;
