/**
 * An attribute's value as written, or null, read from its attribute node. linkedom's
 * `getAttribute` does more per call: it rebuilds `class` from a fresh token list, and escapes other
 * values again in XML documents; the cleaning passes read attributes on every element of a page.
 */
export function attributeValue(element: Element, name: string): string | null {
  return element.getAttributeNode(name)?.value ?? null;
}

/** The element's `class` attribute as written, or null. */
export const classAttribute = (element: Element): string | null => attributeValue(element, 'class');
