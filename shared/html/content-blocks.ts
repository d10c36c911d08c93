import { collapseWhitespace } from './collapsed-text-length';

/**
 * A page cut into blocks: the elements that hold text of their own (a paragraph, a list item, a
 * heading, a table, a code block, a `div` with text directly in it), in reading order, each with
 * the facts the block classifier reads (block-classes.ts). Segmenting walks the tree once.
 */
export interface ContentBlock {
  /** The element the block's text sits in. */
  element: Element;
  /** The block's own nodes: the element itself, or the text and inline children it holds beside nested blocks. */
  nodes: Node[];
  /** The block's own text up to {@link SAMPLE_CHARS} characters, whitespace collapsed: enough to tell a price or a label. */
  sample: string;
  /** Characters of text, whitespace runs counted as one. */
  text: number;
  /** Of those, characters inside links. */
  linkText: number;
  /** Links in the block. */
  links: number;
  /** Words, and sentence ends (`.`, `!`, `?`, `。` followed by a space or the end). */
  words: number;
  sentences: number;
  /** The block's text ends with a sentence end: it is a sentence, not a label or a button. */
  endsSentence: boolean;
  /** A heading (h1–h6), structured content kept whole (table, pre, figure), or ordinary text. */
  kind: 'heading' | 'structured' | 'text';
}

/** Elements that start a block of their own; inline elements belong to the block around them. */
const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'footer',
  'form',
  'header',
  'hgroup',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'section',
  'summary',
  'ul',
  'caption',
  'center',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Kept whole: their cells and lines are short, yet together they are a docs page's or a spec sheet's content. */
const STRUCTURED = new Set(['table', 'pre', 'figure']);

const SAMPLE_CHARS = 40;
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const SENTENCE_END = /[.!?。！？](?=\s|$)/g;
const FINAL_SENTENCE_END = /[.!?。！？]["'”’)]?$/;
const WORD = /[\p{L}\p{N}]+/gu;

/** The blocks under `root`, in document order. Blocks without text are left out. */
export function segmentBlocks(root: Element): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const visit = (element: Element) => {
    const name = element.localName;
    if (HEADINGS.has(name) || STRUCTURED.has(name)) {
      addBlock(element, HEADINGS.has(name) ? 'heading' : 'structured', [element]);
      return;
    }
    // The text directly in this block (and its inline descendants) is one block; nested blocks are their own.
    const own: Node[] = [];
    for (let child = element.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) own.push(child);
      else if (child.nodeType === ELEMENT_NODE) {
        const childElement = child as Element;
        if (startsBlock(childElement)) {
          flush();
          visit(childElement);
        } else own.push(child);
      }
    }
    flush();

    function flush(): void {
      if (own.length === 0) return;
      addBlock(element, 'text', own.splice(0));
    }
  };
  const addBlock = (element: Element, kind: ContentBlock['kind'], nodes: Node[]) => {
    let text = '';
    let linkText = 0;
    let links = 0;
    for (const node of nodes) {
      const content = node.textContent ?? '';
      text += content;
      if (node.nodeType === ELEMENT_NODE) {
        const inner = node as Element;
        if (inner.localName === 'a') {
          linkText += collapseWhitespace(content).length;
          links += 1;
        } else {
          for (const link of inner.querySelectorAll('a')) {
            linkText += collapseWhitespace(link.textContent ?? '').length;
            links += 1;
          }
        }
      }
    }
    const collapsed = collapseWhitespace(text);
    if (collapsed === '') return;
    blocks.push({
      element,
      nodes,
      sample: collapsed.slice(0, SAMPLE_CHARS),
      text: collapsed.length,
      linkText: Math.min(linkText, collapsed.length),
      links,
      words: collapsed.match(WORD)?.length ?? 0,
      sentences: collapsed.match(SENTENCE_END)?.length ?? 0,
      endsSentence: FINAL_SENTENCE_END.test(collapsed),
      kind,
    });
  };
  visit(root);
  return blocks;
}

function startsBlock(element: Element): boolean {
  const name = element.localName;
  if (BLOCK_ELEMENTS.has(name) || HEADINGS.has(name) || STRUCTURED.has(name)) return true;
  // An inline element wrapping blocks (a card's link around its title and text) is walked into;
  // one without element children cannot, and is not asked (the query is the walk's main cost).
  return element.firstElementChild !== null && element.querySelector(NESTED_BLOCKS) !== null;
}

const NESTED_BLOCKS = 'p, div, li, table, pre, h1, h2, h3, h4, h5, h6';
