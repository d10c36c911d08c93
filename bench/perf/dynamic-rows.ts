import { FEED_ITEMS } from './dynamic-pages';
import type { DynamicResult } from './dynamic-measure';
import type { BenchRow } from './results-table';

const failures = (count: number) => (count > 0 ? `, ${count} scrapes failed` : '');

/** The completeness rows of one contender, with the same keys' shape for every one. */
export function dynamicRows(key: string, who: string, result: DynamicResult): BenchRow[] {
  return [
    {
      key: `${key}-late-complete`,
      label: `${who}: late-rendered pages complete`,
      value: (100 * result.lateComplete) / result.latePages,
      unit: '%',
      better: 'higher',
      note: `${result.lateComplete} of ${result.latePages} pages, ${result.lateSeconds.toFixed(1)} s${failures(result.lateFailed)}`,
    },
    {
      key: `${key}-feed-items`,
      label: `${who}: infinite-scroll entries in the Markdown, per page`,
      value: result.feedItems / result.feedPages,
      unit: `of ${FEED_ITEMS}`,
      better: 'higher',
      note: `${result.feedItems} of ${result.feedPages * FEED_ITEMS} on ${result.feedPages} pages, ${result.feedSeconds.toFixed(1)} s${failures(result.feedFailed)}`,
    },
  ];
}
