import { type JsonObject, propertyValue, valuedByText } from './structured-data';

/**
 * RDFa Lite items (W3C RDFa Lite 1.1: `vocab`, `typeof`, `property`, `resource`, `prefix`) as
 * JSON-LD-like objects with `@type` and, when `resource` names it, `@id`: the third way pages
 * publish schema.org data, read for the knowledgeGraph format. Properties outside any `typeof`
 * (OpenGraph `<meta property>` in the head) are not items and are left out.
 */

const MAX_ITEMS = 500;
const MAX_DEPTH = 8;

/** A property's value: `content` first, then `resource` where microdata would read the text. */
function rdfaValue(element: Element): string {
  if (element.hasAttribute('content')) return element.getAttribute('content') ?? '';
  if (element.hasAttribute('resource') && valuedByText(element))
    return element.getAttribute('resource') ?? '';
  return propertyValue(element);
}

/** The nearest ancestor with `typeof`: the item a property element belongs to. */
function ownerItem(element: Element): Element | null {
  let parent = element.parentElement;
  while (parent !== null && !parent.hasAttribute('typeof')) parent = parent.parentElement;
  return parent;
}

/** `schema:Person` or `https://schema.org/Person` → `Person`; prefixes are not resolved further. */
const localName = (term: string) => term.replace(/^.*[/#:]/, '');

function readItem(scope: Element, depth: number): JsonObject {
  const item: JsonObject = {};
  const type = (scope.getAttribute('typeof') ?? '').split(/\s+/).filter(Boolean).map(localName).join(' ');
  if (type !== '') item['@type'] = type;
  const resource = scope.getAttribute('resource');
  if (resource !== null && resource !== '') item['@id'] = resource;
  for (const element of Array.from(scope.querySelectorAll('[property]'))) {
    if (ownerItem(element) !== scope) continue;
    const nested = element.hasAttribute('typeof') && depth < MAX_DEPTH;
    const value: unknown = nested ? readItem(element, depth + 1) : rdfaValue(element);
    for (const name of (element.getAttribute('property') ?? '').split(/\s+/).filter(Boolean).map(localName)) {
      const existing = item[name];
      item[name] =
        existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
  }
  return item;
}

/** Top-level RDFa Lite items: `typeof` elements that are not themselves a property of another. */
export function extractRdfaLite(document: Document): JsonObject[] {
  return Array.from(document.querySelectorAll('[typeof]'))
    .filter((scope) => !scope.hasAttribute('property') || ownerItem(scope) === null)
    .slice(0, MAX_ITEMS)
    .map((scope) => readItem(scope, 0));
}
