import { closestWhere, tagIn } from './closest-where';
import { collapsedTextLength } from './collapsed-text-length';

export interface TextMeasure {
  /** Characters of text, whitespace runs counted as one. */
  text: number;
  /** Of those, characters inside links. */
  linkText: number;
  /** Of those, characters in code blocks and data tables (with header cells): what docs and spec sheets are made of. */
  structured: number;
}

const isLink = tagIn(new Set(['a']));
const isStructured = tagIn(new Set(['pre', 'table']));

/** How much prose, link text and structured content an element holds; the main-content chooser compares these. */
export function measureText(root: Element): TextMeasure {
  let linkText = 0;
  for (const link of root.querySelectorAll('a')) {
    // Nested links are invalid HTML but occur; count only the outermost.
    if (closestWhere(link.parentElement, isLink) === null) linkText += collapsedTextLength(link);
  }
  return {
    text: collapsedTextLength(root),
    linkText,
    structured: structuredText(root),
  };
}

/** Layout tables (no `<th>`) are ignored: old article templates wrap whole pages in them. */
function structuredText(root: Element): number {
  let total = 0;
  for (const element of root.querySelectorAll('pre, table')) {
    if (element.localName === 'table' && element.querySelector('th') === null) continue;
    if (closestWhere(element.parentElement, isStructured) !== null) continue;
    total += collapsedTextLength(element);
  }
  return total;
}
