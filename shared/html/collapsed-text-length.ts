/**
 * Characters of text under `root` with each whitespace run counted as one space and none counted
 * at either end: `root.textContent.replace(/\s+/g, ' ').trim().length`, counted over the text
 * nodes without building that string. The safety rails measure the whole body before and after
 * every cleaning step, and joining and rewriting a large page's text for a number cost more than
 * counting it. With `stopAbove`, counting stops once the count passes it (the result is then
 * only known to be above it): a caller asking "is this short?" need not read a long text.
 */
export function collapsedTextLength(
  root: Node,
  { stopAbove = Infinity }: { stopAbove?: number } = {},
): number {
  let count = 0;
  let spaceBefore = false;
  let textSeen = false;
  // Depth first through sibling links: no list of the subtree's nodes is built, so stopping early saves the rest.
  for (
    let node: Node | null = root.firstChild;
    node !== null && count <= stopAbove;
    node = nextInTree(node, root)
  ) {
    if (node.nodeType !== TEXT_NODE && node.nodeType !== CDATA_SECTION_NODE) continue;
    const data = (node as CharacterData).data;
    for (let index = 0; index < data.length; index += 1) {
      if (isWhitespace(data.charCodeAt(index))) {
        spaceBefore = textSeen;
        continue;
      }
      if (spaceBefore) count += 1;
      spaceBefore = false;
      count += 1;
      textSeen = true;
    }
  }
  return count;
}

/** The node after `node` in document order inside `root`, or null at the end of `root`. */
function nextInTree(node: Node, root: Node): Node | null {
  const child = node.firstChild;
  if (child !== null) return child;
  for (let current: Node | null = node; current !== null && current !== root; current = current.parentNode) {
    const sibling = current.nextSibling;
    if (sibling !== null) return sibling;
  }
  return null;
}

/** The node types `textContent` is made of. */
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** What `\s` matches in a JavaScript regular expression (all of it in the Basic Multilingual Plane). */
function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `text` with each whitespace run made one space and none at either end: what the lengths above count. */
export const collapseWhitespace = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim();
