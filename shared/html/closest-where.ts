/**
 * `element.closest(selector)` for a test written in code: the element itself or the nearest
 * ancestor that passes, or null. The cleaning passes ask this of every element they keep or drop,
 * and a plain tag list is a set lookup per step up where `closest` compiles and matches a selector.
 */
export function closestWhere(element: Element | null, test: (element: Element) => boolean): Element | null {
  for (let current = element; current !== null; current = current.parentElement)
    if (test(current)) return current;
  return null;
}

/** A test for {@link closestWhere}: the element's tag is one of `names` (lower case). */
export const tagIn =
  (names: ReadonlySet<string>) =>
  (element: Element): boolean =>
    names.has(element.localName);
