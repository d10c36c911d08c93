import { feedItemsIn, lateComplete, pageIndex } from './dynamic-pages';
import { forEachConcurrently } from './run-concurrently';

/** What Tabhive or a peer got from the late and feed pages (dynamic-pages.ts). */
export interface DynamicResult {
  latePages: number;
  /** Late pages whose Markdown holds what their script wrote. */
  lateComplete: number;
  lateSeconds: number;
  /** Late pages whose scrape failed; they count as incomplete. */
  lateFailed: number;
  feedPages: number;
  /** Distinct feed entries in the Markdown, summed over the feed pages. */
  feedItems: number;
  feedSeconds: number;
  /** Feed pages whose scrape failed; they count as empty. */
  feedFailed: number;
}

/** Counts what each page's Markdown holds, for callers driven page by page (Crawlee's handlers). */
export function createDynamicTally() {
  const result: DynamicResult = {
    latePages: 0,
    lateComplete: 0,
    lateSeconds: 0,
    lateFailed: 0,
    feedPages: 0,
    feedItems: 0,
    feedSeconds: 0,
    feedFailed: 0,
  };
  return {
    result,
    late(url: string, markdown: string | undefined) {
      result.latePages += 1;
      if (markdown === undefined) result.lateFailed += 1;
      else if (lateComplete(pageIndex(url), markdown)) result.lateComplete += 1;
    },
    feed(url: string, markdown: string | undefined) {
      result.feedPages += 1;
      if (markdown === undefined) result.feedFailed += 1;
      else result.feedItems += feedItemsIn(pageIndex(url), markdown);
    },
  };
}

/**
 * Late pages, then feed pages, `concurrency` at a time; `late` and `feed` return a page's
 * Markdown. A failed page counts as empty (its first error is logged), so that one contender's
 * failure does not end the bench.
 */
export async function measureDynamic({
  lateUrls,
  feedUrls,
  concurrency,
  late,
  feed,
}: {
  lateUrls: string[];
  feedUrls: string[];
  concurrency: number;
  late: (url: string, worker: number) => Promise<string>;
  feed: (url: string, worker: number) => Promise<string>;
}): Promise<DynamicResult> {
  const tally = createDynamicTally();
  let logged = false;
  const attempt = async (run: () => Promise<string>) => {
    try {
      return await run();
    } catch (err) {
      if (!logged) console.error(`a dynamic page failed: ${String(err).slice(0, 500)}`);
      logged = true;
      return undefined;
    }
  };
  let started = performance.now();
  await forEachConcurrently(lateUrls, concurrency, async (url, worker) =>
    tally.late(url, await attempt(() => late(url, worker))),
  );
  tally.result.lateSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await forEachConcurrently(feedUrls, concurrency, async (url, worker) =>
    tally.feed(url, await attempt(() => feed(url, worker))),
  );
  tally.result.feedSeconds = (performance.now() - started) / 1000;
  return tally.result;
}
