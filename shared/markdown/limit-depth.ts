/**
 * Chrome's HTML parser stops nesting elements at this depth and adds deeper ones as siblings, so
 * parsed pages never exceed it; only script-built trees do.
 */
export const MAX_MARKDOWN_DEPTH = 512;

/**
 * Turndown converts recursively and overflows the stack a few thousand elements deep. Returns
 * `root` itself, or, when it nests deeper than `maxDepth`, a copy in which each element at that
 * depth keeps only its text.
 */
export function limitDepth<T extends Element>(root: T, maxDepth = MAX_MARKDOWN_DEPTH): T {
  if (deepestElements(root, maxDepth).length === 0) return root;
  const copy = root.cloneNode(true) as T;
  for (const element of deepestElements(copy, maxDepth)) {
    const text = element.textContent ?? '';
    element.textContent = text;
  }
  return copy;
}

/** Elements `maxDepth` levels below `root` that still have element children. */
function deepestElements(root: Element, maxDepth: number): Element[] {
  const found: Element[] = [];
  const stack: Array<[Element, number]> = [[root, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, depth] = entry;
    if (depth >= maxDepth) {
      if (element.firstElementChild) found.push(element);
      continue;
    }
    // Sibling links rather than children, which linkedom builds as a new list on every read.
    for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling) {
      stack.push([child, depth + 1]);
    }
  }
  return found;
}
