/** Characters of text in an element, and of those, characters inside links. */
export interface TextWeight {
  text: number;
  linkText: number;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/**
 * The text and link text of every element under `root` (itself included), in one walk: the
 * main-content scoring asks it of many nested elements, which `textContent` each would re-walk.
 * Whitespace runs count as one character, as in {@link measureText}, up to the seams between text
 * nodes.
 */
export function textWeights(root: Element): Map<Element, TextWeight> {
  const weights = new Map<Element, TextWeight>();
  const visit = (element: Element, inLink: boolean): TextWeight => {
    const weight = { text: 0, linkText: 0 };
    const linked = inLink || element.localName === 'a';
    for (let child = element.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) {
        const length = collapsedLength(child.textContent ?? '');
        weight.text += length;
        if (linked) weight.linkText += length;
      } else if (child.nodeType === ELEMENT_NODE) {
        const inner = visit(child as Element, linked);
        weight.text += inner.text;
        weight.linkText += inner.linkText;
      }
    }
    weights.set(element, weight);
    return weight;
  };
  visit(root, false);
  return weights;
}

/** Text outside links: what a reader reads rather than clicks. */
export const prose = (weight: TextWeight | undefined) =>
  weight === undefined ? 0 : weight.text - weight.linkText;

/** Length of `text` with each whitespace run counted as one character, without building the string. */
function collapsedLength(text: string): number {
  let length = 0;
  let inSpace = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const space = code === 32 || code === 10 || code === 9 || code === 13 || code === 12;
    if (!space || !inSpace) length += 1;
    inSpace = space;
  }
  return length;
}
