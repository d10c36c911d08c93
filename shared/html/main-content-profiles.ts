import type { BlockThresholds } from './block-classes';
import type { PageType } from './page-type';

/**
 * How main content is found on each page type (issue 35). `choice` is how the page-level answer
 * is picked: `auto` weighs Readability's article against the blocklist's result page by page
 * (extract-main-content.ts), `blocklist` keeps the blocklist's result, which holds every entry of
 * a grid or a list, and `narrowed` cuts that down to where its prose concentrates, without
 * Readability. `blocks`, when set, then removes the blocks the block classifier calls chrome
 * (prune-blocks.ts) with these thresholds. Set on the tuning half of the WCXB sample (split by
 * site) and the Article Extraction Benchmark, by page type, never by page (BENCHMARKS.md).
 */
export interface MainContentProfile {
  choice: 'auto' | 'blocklist' | 'narrowed';
  blocks?: BlockThresholds;
}

/** Chrome wherever it is: what is left of menus, filters and link lists between the content. */
const EVERY_CHROME_BLOCK: BlockThresholds = { maxLinkDensity: 0.5, goodChars: 80, reach: 'all' };

/**
 * Measured on the tuning half (bench/quality/analyze-page-types.ts and BENCHMARKS.md#main-content-quality):
 * block pruning gained on forums (+0.027 over 65 pages, per-post action bars and thread chrome)
 * and product pages (+0.04 over 52, buy-box widgets and footers). On product pages a short
 * linkless sentence counts as content (a care note of one sentence, which a buyer reads, is no
 * longer dropped), and a page that is mostly a grid of items is pruned at its edges only (a
 * category that declares itself a product); with the removal of other products' carousels on
 * every type (recommendation-sections.ts), +0.03 on the tuning half's product pages (0.498 →
 * 0.530). Short sentences cost forums (comments under answers), which keep them undecided. Block
 * pruning lost on collections (−0.08: a grid's cards are links and prices, which it calls chrome),
 * listings, documentation (code-adjacent short lines) and articles, which keep the per-page
 * choice. Documentation and service pages do as well without Readability (docs ±0, service
 * +0.008) and skip it: it is most of extraction's time (median per page 30 → 21 ms).
 */
export const MAIN_CONTENT_PROFILES: Record<PageType, MainContentProfile> = {
  article: { choice: 'auto' },
  forum: { choice: 'auto', blocks: EVERY_CHROME_BLOCK },
  product: {
    choice: 'narrowed',
    blocks: { ...EVERY_CHROME_BLOCK, reach: 'all-but-grids', shortSentences: true },
  },
  collection: { choice: 'blocklist' },
  listing: { choice: 'auto' },
  documentation: { choice: 'narrowed' },
  service: { choice: 'narrowed' },
};
