import { segmentBlocks } from './content-blocks';

/**
 * Characters of the largest block of prose (text outside links) on the page: what main-content
 * extraction may never come out below (0 when it is no paragraph) (issue 35). A page whose largest paragraph is dropped has
 * lost its content to a wrong choice, and its input is the better answer.
 */
export function proseFloor(root: Element): number {
  let largest = 0;
  for (const block of segmentBlocks(root)) {
    if (block.kind === 'text') largest = Math.max(largest, block.text - block.linkText);
  }
  return largest >= MIN_PROSE_BLOCK_CHARS ? Math.round(largest * FLOOR_SHARE) : 0;
}

/**
 * The floor is half the largest block, not all of it: a short news item or a blog's open thread
 * sits beside a longer reader comment or a publisher's footer notice (three pages of the Article
 * Extraction Benchmark), and the right answer is then smaller than that block. Losing the article
 * itself leaves far less than half of it.
 */
const FLOOR_SHARE = 0.5;

/**
 * Below this a block is a label, a button or a teaser, whose loss is the extraction doing its job:
 * only a paragraph's worth of prose sets a floor.
 */
const MIN_PROSE_BLOCK_CHARS = 200;
