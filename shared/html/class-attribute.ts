/**
 * The element's `class` attribute as written, or null. linkedom's `getAttribute('class')` rebuilds
 * the value from a fresh token list on every call, many times the cost of reading the attribute
 * node, and the main-content passes read class names on every element of a page.
 */
export function classAttribute(element: Element): string | null {
  return element.getAttributeNode('class')?.value ?? null;
}
