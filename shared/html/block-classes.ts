import type { ContentBlock } from './content-blocks';

export type BlockClass = 'good' | 'bad' | 'short';

/** What a page type's profile (main-content-profiles.ts) says a block needs to be content. */
export interface BlockThresholds {
  /** Above this share of its text in links a block is navigation, a tag cloud or a grid of links. */
  maxLinkDensity: number;
  /** At least this many characters, outside links mostly, and a sentence or enough words: prose. */
  goodChars: number;
  /**
   * `edges` removes chrome only before the first and after the last content block (a grid's cards
   * between them stay, however link-heavy); `all` removes it wherever it is; `all-but-grids` is
   * `all`, or `edges` on a page that is mostly one run of alike items (extract-main-content.ts).
   */
  reach: 'all' | 'edges' | 'all-but-grids';
  /**
   * A short full sentence without links counts as content: on a product page a care note or a fit
   * hint; on a thread it is mostly a comment under a post, which a thread's reader skips.
   */
  shortSentences?: boolean;
}

/** Prose holds at most this share of link text (a paragraph citing a few links). */
const PROSE_LINK_DENSITY = 0.3;
/** A block of this many words or more without a full stop is a description or a spec line, not a label. */
const PROSE_WORDS = 15;
/** Short blocks without links and with this many words sit well between content (captions, spec lines). */
const NEAR_GOOD_WORDS = 3;

/**
 * Classifies each block as content (`good`), chrome (`bad`) or undecided, then decides the
 * undecided by their neighbours, as boilerplate classifiers in the manner of jusText do: a short
 * block between content is content (a spec line, a caption, a heading over a paragraph), a short
 * block among chrome is chrome, and a heading is content when content follows it.
 */
export function classifyBlocks(blocks: readonly ContentBlock[], thresholds: BlockThresholds): BlockClass[] {
  const classes = blocks.map((block) => initialClass(block, thresholds));
  const decided = classes.slice();
  const nearestDecided = (from: number, step: 1 | -1): BlockClass | undefined => {
    for (let index = from + step; index >= 0 && index < classes.length; index += step) {
      const value = classes[index];
      if (value !== 'short') return value;
    }
    return undefined;
  };
  for (let index = 0; index < blocks.length; index += 1) {
    const block = blocks[index] as ContentBlock;
    const before = nearestDecided(index, -1);
    const after = nearestDecided(index, 1);
    if (classes[index] !== 'short') continue;
    // The headline stays whatever follows it (a linked author name, say).
    if (block.element.localName === 'h1') decided[index] = 'good';
    else if (block.kind === 'heading') decided[index] = after === 'good' ? 'good' : 'bad';
    else if (before === 'good' && after === 'good') decided[index] = 'good';
    else if ((before === 'good' || after === 'good') && nearGood(block)) decided[index] = 'good';
    else decided[index] = 'bad';
  }
  // A post's byline over its post: a linked name, alone or beside a rank or a date. An action bar
  // (Reply, Quote, Like) follows its post, not precedes one, and stays chrome.
  const smoothed = decided.slice();
  for (let index = 0; index < blocks.length - 1; index += 1) {
    if (smoothed[index] === 'bad' && smoothed[index + 1] === 'good' && byline(blocks[index] as ContentBlock))
      decided[index] = 'good';
  }
  return decided;
}

function initialClass(
  block: ContentBlock,
  { maxLinkDensity, goodChars, shortSentences = false }: BlockThresholds,
): BlockClass {
  // A heading is decided by what follows it, linked or not: a listing's item titles are links.
  if (block.kind === 'heading') return 'short';
  const linkDensity = block.linkText / block.text;
  if (linkDensity > maxLinkDensity) return 'bad';
  if (block.kind === 'structured') return 'good';
  if (
    block.text >= goodChars &&
    linkDensity <= PROSE_LINK_DENSITY &&
    (block.sentences > 0 || block.words >= PROSE_WORDS)
  )
    return 'good';
  // Labels, buttons and menu items are not sentences.
  if (shortSentences && block.linkText === 0 && block.endsSentence && block.words >= SENTENCE_WORDS)
    return 'good';
  return 'short';
}

/** A sentence of this many words or more, ending in a full stop, says something of its own. */
const SENTENCE_WORDS = 5;

/** Near content, a short block may link a name or two (a byline, "Started by …"). */
const NEAR_GOOD_LINK_DENSITY = 0.5;
/** A byline is short, and holds words outside its links (a rank, a date). */
const BYLINE_CHARS = 60;
const BYLINE_PLAIN_CHARS = 4;
const byline = (block: ContentBlock) =>
  block.kind === 'text' &&
  block.text <= BYLINE_CHARS &&
  (block.links === 1 || block.text - block.linkText >= BYLINE_PLAIN_CHARS);

/** A price as shops print it: a product's price is short, yet content next to its description. */
const PRICE = /[$€£¥₹]\s?\d|\d\s?(€|EUR|USD|GBP)\b/;

const nearGood = (block: ContentBlock) =>
  block.linkText <= block.text * NEAR_GOOD_LINK_DENSITY &&
  (block.words >= NEAR_GOOD_WORDS || (block.text <= MAX_PRICE_CHARS && PRICE.test(block.sample)));

/** A block this short with a currency and an amount is a price; longer ones are a sentence that names one. */
const MAX_PRICE_CHARS = 24;
