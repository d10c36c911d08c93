/**
 * The elements under `root` in document order, as `root.querySelectorAll('*')` gives them: what a
 * `<template>` holds is left out, as linkedom's queries leave it out (it is not part of the page).
 * One walk serves every selector list a pass asks about.
 */
export function pageElements(root: ParentNode): Element[] {
  const found: Element[] = [];
  const document = root.ownerDocument ?? (root as Document);
  const walker = document.createTreeWalker(root as Node, SHOW_ELEMENT);
  // The last element inside the <template> being skipped.
  let skipThrough: Element | null = null;
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const element = node as Element;
    if (skipThrough !== null) {
      if (element === skipThrough) skipThrough = null;
      continue;
    }
    found.push(element);
    if (element.localName === 'template') skipThrough = lastDescendant(element);
  }
  return found;
}

/** NodeFilter.SHOW_ELEMENT, which Node has no global for. */
const SHOW_ELEMENT = 1;

/**
 * The last element inside `element` in document order, or null when it holds none. A tree walker
 * lists elements in document order, so a subtree ends at its last element. No recursion: a hostile
 * page nests deeper than the stack goes.
 */
export function lastDescendant(element: Element): Element | null {
  let last: Element | null = null;
  for (let current = element.lastElementChild; current !== null; current = current.lastElementChild)
    last = current;
  return last;
}
