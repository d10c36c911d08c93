import { AsyncLocalStorage } from 'node:async_hooks';

/** What served a page: a browser, the HTTP fast path, the cache, or nothing (an uploaded document). */
export type ScrapeEngine = 'browser' | 'http' | 'cache' | 'none';

/**
 * Tells a scrape's counter which engine served it. The scrape runs in a context of its own; the
 * wrapped cache, fast path and browser tasks mark it as they serve, the last one winning (a page
 * the fast path fetched but found blocked goes on to a browser).
 */
export function createScrapeEngines() {
  const current = new AsyncLocalStorage<{ engine: ScrapeEngine }>();
  return {
    async run<T>(work: () => Promise<T>): Promise<{ value: T; engine: ScrapeEngine }> {
      const state = { engine: 'none' as ScrapeEngine };
      const value = await current.run(state, work);
      return { value, engine: state.engine };
    },
    mark(engine: ScrapeEngine): void {
      const state = current.getStore();
      if (state !== undefined) state.engine = engine;
    },
  };
}

export type ScrapeEngines = ReturnType<typeof createScrapeEngines>;
