import { elementHiding, type HidingReason, hidingRules } from './hiding-styles';

/**
 * Where a piece of a page's text sits, as prompt-injection screening sees it: text a reader sees,
 * text hidden from the reader (with why), attribute text (alt, title, aria-label), and comments.
 */
export type TextChannel = 'visible' | 'hidden' | 'attribute' | 'comment';

export interface TextSegment {
  readonly channel: TextChannel;
  readonly text: string;
  /** Why it is hidden (channel `hidden`), or which attribute holds it (channel `attribute`). */
  readonly where?: HidingReason | string;
  /** Inside code, a quotation or an example: a page quoting an instruction, not giving one. */
  readonly quoted: boolean;
}

/** Bounds, so a huge page costs a bounded amount of screening on the event loop. */
const MAX_ELEMENTS = 30_000;
const MAX_SEGMENT_CHARS = 4_000;
const MAX_TOTAL_CHARS = 400_000;

const SKIPPED = new Set(['script', 'style', 'noscript', 'svg', 'math', 'template', 'iframe', 'object']);
const QUOTING = new Set(['code', 'pre', 'kbd', 'samp', 'blockquote', 'q', 'var', 'figcaption']);
const ATTRIBUTES = ['alt', 'title', 'aria-label', 'aria-description', 'placeholder'];
/** Blocks whose text is one passage: a segment's meta context is judged within it. */
const BLOCKS = new Set(['p', 'li', 'td', 'th', 'dd', 'dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figcaption']);

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const COMMENT_NODE = 8;

/**
 * The text of a parsed page split by channel, in document order. Adjacent text of one element in
 * one channel is joined, so an instruction split over inline elements still reads as one.
 */
export function pageTextChannels(document: Document): TextSegment[] {
  const styles = hidingRules(document);
  const segments: TextSegment[] = [];
  let total = 0;
  let elements = 0;
  const push = (segment: TextSegment) => {
    const text = segment.text.replace(/\s+/g, ' ').trim().slice(0, MAX_SEGMENT_CHARS);
    if (text === '' || total > MAX_TOTAL_CHARS) return;
    total += text.length;
    segments.push({ ...segment, text });
  };

  // The metadata a model is shown as the page's description.
  for (const meta of Array.from(
    document.querySelectorAll('meta[name="description"], meta[property="og:description"]'),
  )) {
    push({
      channel: 'attribute',
      where: 'meta description',
      text: meta.getAttribute('content') ?? '',
      quoted: false,
    });
  }

  interface Run {
    text: string;
    readonly hidden: HidingReason | undefined;
    readonly quoted: boolean;
  }
  const flush = (run: Run) => {
    if (run.text === '') return;
    push(
      run.hidden === undefined
        ? { channel: 'visible', text: run.text, quoted: run.quoted }
        : { channel: 'hidden', where: run.hidden, text: run.text, quoted: run.quoted },
    );
    run.text = '';
  };
  const walk = (node: Node, run: Run) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        run.text += ` ${child.textContent ?? ''}`;
      } else if (child.nodeType === COMMENT_NODE) {
        push({ channel: 'comment', text: child.textContent ?? '', quoted: false });
      } else if (child.nodeType === ELEMENT_NODE) {
        if (++elements > MAX_ELEMENTS) return;
        const element = child as Element;
        const name = element.localName;
        if (SKIPPED.has(name)) continue;
        const quoted = run.quoted || QUOTING.has(name);
        for (const attribute of ATTRIBUTES) {
          const value = element.getAttribute(attribute);
          if (value !== null) push({ channel: 'attribute', where: attribute, text: value, quoted });
        }
        const hidden = run.hidden ?? elementHiding(element, styles);
        if (
          hidden !== run.hidden ||
          quoted !== run.quoted ||
          BLOCKS.has(name) ||
          name === 'div' ||
          name === 'br'
        ) {
          // A new passage or channel: what came before is one segment, this element another.
          flush(run);
          const inner: Run = { text: '', hidden, quoted };
          walk(element, inner);
          flush(inner);
        } else {
          // An inline element in the same channel: its text continues the passage.
          walk(element, run);
        }
      }
    }
  };
  const root: Run = { text: '', hidden: undefined, quoted: false };
  walk(document.body ?? document.documentElement, root);
  flush(root);
  // Comments outside the body (before <html>, in <head>) are read too.
  for (const comment of headComments(document)) push({ channel: 'comment', text: comment, quoted: false });
  return segments;
}

function headComments(document: Document): string[] {
  const out: string[] = [];
  const visit = (node: Node, depth: number) => {
    if (depth > 3) return;
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === COMMENT_NODE) out.push(child.textContent ?? '');
      else if (child.nodeType === ELEMENT_NODE && (child as Element).localName !== 'body')
        visit(child, depth + 1);
    }
  };
  visit(document, 0);
  return out;
}
