import { type BlockThresholds, classifyBlocks } from './block-classes';
import { type ContentBlock, segmentBlocks } from './content-blocks';

/** Media keep an otherwise empty container: a product's photo, a figure, a video. */
const MEDIA = 'img, picture, video, audio, svg, canvas, [data-original-tag=iframe]';

/**
 * Removes the blocks under `root` that the block classifier calls chrome (block-classes.ts): the
 * filters, menus, link grids and one-word widgets left between and around the content once the
 * page-level cleaning has run. Nothing is removed when no block is content (the page is a grid of
 * links, or too short to judge), and the largest prose block always stays: no pass may empty a
 * page, and none may leave it smaller than its largest paragraph (issue 35).
 */
export function pruneBlocks(root: Element, thresholds: BlockThresholds): void {
  const blocks = segmentBlocks(root);
  const classes = classifyBlocks(blocks, thresholds);
  if (!classes.includes('good')) return;
  const largest = largestProse(blocks);
  const first = classes.indexOf('good');
  const last = classes.lastIndexOf('good');
  const inReach = (index: number) => thresholds.reach !== 'edges' || index < first || index > last;
  const emptied = new Set<Element>();
  blocks.forEach((block, index) => {
    if (classes[index] !== 'bad' || block === largest || !inReach(index)) return;
    for (const node of block.nodes) node.parentNode?.removeChild(node);
    emptied.add(block.element);
  });
  for (const element of emptied) removeIfEmpty(element, root);
}

function largestProse(blocks: readonly ContentBlock[]): ContentBlock | undefined {
  let best: ContentBlock | undefined;
  for (const block of blocks) {
    if (best === undefined || block.text - block.linkText > best.text - best.linkText) best = block;
  }
  return best;
}

/** An element left without text or media goes, and so do the wrappers it leaves empty. */
function removeIfEmpty(element: Element, root: Element): void {
  let node: Element | null = element;
  while (node !== null && node !== root && node.isConnected !== false) {
    if ((node.textContent ?? '').trim() !== '' || node.querySelector(MEDIA) !== null || node.matches(MEDIA))
      return;
    const parent: Element | null = node.parentElement;
    node.remove();
    node = parent;
  }
}
