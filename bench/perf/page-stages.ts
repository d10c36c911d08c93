/**
 * A page's wall-clock stages during a crawl, from the server's own metrics (`/metrics`):
 * `tabhive_page_stage_seconds` (queue, navigate, settle, capture, transfer, derive) and the store's
 * operations (`tabhive_store_operation_duration_seconds`), read before and after, and divided by
 * the crawl's pages. Stages overlap across the tabs, so they add up to more than the crawl's
 * wall clock divided by its pages: they say where one page waits, not what bounds the crawl.
 */
export type PageStage = 'queue' | 'navigate' | 'settle' | 'capture' | 'transfer' | 'derive' | 'store';
export const PAGE_STAGES: PageStage[] = [
  'queue',
  'navigate',
  'settle',
  'capture',
  'transfer',
  'derive',
  'store',
];

interface StageTotals {
  /** Seconds and observations per stage. */
  sums: Partial<Record<PageStage, { seconds: number; count: number }>>;
}

/** Sums of one histogram's `_sum` and `_count` lines, by a label's value. */
function histogramTotals(text: string, metric: string, label: string) {
  const totals = new Map<string, { seconds: number; count: number }>();
  const line = new RegExp(`^${metric}_(sum|count)\\{([^}]*)\\} (\\S+)$`, 'gm');
  for (const match of text.matchAll(line)) {
    const [, part, labels, value] = match as unknown as [string, 'sum' | 'count', string, string];
    const key = new RegExp(`${label}="([^"]*)"`).exec(labels)?.[1];
    if (key === undefined) continue;
    const entry = totals.get(key) ?? { seconds: 0, count: 0 };
    if (part === 'sum') entry.seconds += Number(value);
    else entry.count += Number(value);
    totals.set(key, entry);
  }
  return totals;
}

async function readStageTotals(serverUrl: string): Promise<StageTotals> {
  const text = await (await fetch(`${serverUrl}/metrics`)).text();
  const sums: StageTotals['sums'] = {};
  for (const [stage, entry] of histogramTotals(text, 'tabhive_page_stage_seconds', 'stage')) {
    sums[stage as PageStage] = entry;
  }
  // Every store operation, whatever the collection (a crawl's pages, its job, the cache), but
  // the index builds of a start.
  let store = { seconds: 0, count: 0 };
  for (const [operation, entry] of histogramTotals(
    text,
    'tabhive_store_operation_duration_seconds',
    'operation',
  )) {
    if (operation !== 'createIndex') {
      store = { seconds: store.seconds + entry.seconds, count: store.count + entry.count };
    }
  }
  sums.store = store;
  return { sums };
}

/** Milliseconds per page by stage. */
export type PageStageMs = Partial<Record<PageStage, number>>;

/** Reads the stage totals now; `stop(pages)` reads them again and gives milliseconds per page. */
export async function watchPageStages(serverUrl: string) {
  const before = await readStageTotals(serverUrl);
  return {
    async stop(pages: number): Promise<PageStageMs> {
      const after = await readStageTotals(serverUrl);
      const perPage: PageStageMs = {};
      for (const stage of PAGE_STAGES) {
        const seconds = (after.sums[stage]?.seconds ?? 0) - (before.sums[stage]?.seconds ?? 0);
        if (seconds > 0) perPage[stage] = (seconds * 1000) / pages;
      }
      return perPage;
    },
  };
}
