/**
 * Structured data that pages publish about themselves: JSON-LD blocks and microdata items.
 * Used by the json format without an LLM, which fills a schema from what the page states.
 */

export type JsonObject = Record<string, unknown>;

const MAX_JSON_LD_CHARS = 512 * 1024;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every JSON-LD object of the page, `@graph` members flattened out; broken blocks are skipped. */
export function extractJsonLd(document: Document): JsonObject[] {
  const objects: JsonObject[] = [];
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) {
    const text = script.textContent ?? '';
    if (text.length > MAX_JSON_LD_CHARS) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const queue = Array.isArray(parsed) ? [...(parsed as unknown[])] : [parsed];
    for (const item of queue) {
      if (!isObject(item)) continue;
      const graph = item['@graph'];
      if (Array.isArray(graph)) objects.push(...graph.filter(isObject));
      else objects.push(item);
    }
  }
  return objects;
}

/** Elements whose value is an attribute rather than their text (WHATWG HTML "microdata: values"). */
const ATTRIBUTE_VALUED = new Set([
  'meta',
  'a',
  'link',
  'area',
  'img',
  'audio',
  'video',
  'source',
  'iframe',
  'embed',
  'object',
  'data',
  'meter',
  'time',
]);

/** Whether a property element's value is its text (so RDFa's `resource` may stand in for it). */
export const valuedByText = (element: Element) => !ATTRIBUTE_VALUED.has(element.localName);

/** The value of a microdata property element (WHATWG HTML "microdata: values"); RDFa Lite reads it too. */
export function propertyValue(element: Element): string {
  const attribute = (name: string) => element.getAttribute(name) ?? '';
  switch (element.localName) {
    case 'meta':
      return attribute('content');
    case 'a':
    case 'link':
    case 'area':
      return attribute('href');
    case 'img':
    case 'audio':
    case 'video':
    case 'source':
    case 'iframe':
    case 'embed':
      return attribute('src');
    case 'object':
      return attribute('data');
    case 'data':
    case 'meter':
      return attribute('value');
    case 'time':
      return element.hasAttribute('datetime') ? attribute('datetime') : (element.textContent ?? '').trim();
    default:
      return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  }
}

/** The nearest itemscope ancestor of a property element (its owner). */
function ownerScope(element: Element): Element | null {
  let parent = element.parentElement;
  while (parent !== null && !parent.hasAttribute('itemscope')) parent = parent.parentElement;
  return parent;
}

function readItem(scope: Element, depth: number): JsonObject {
  const item: JsonObject = {};
  const type = scope.getAttribute('itemtype');
  if (type)
    item['@type'] = type
      .split(/\s+/)
      .map((url) => url.replace(/^.*[/#]/, ''))
      .join(' ');
  for (const element of Array.from(scope.querySelectorAll('[itemprop]'))) {
    if (ownerScope(element) !== scope) continue;
    const value: unknown =
      element.hasAttribute('itemscope') && depth < 8 ? readItem(element, depth + 1) : propertyValue(element);
    for (const name of (element.getAttribute('itemprop') ?? '').split(/\s+/).filter(Boolean)) {
      const existing = item[name];
      item[name] =
        existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
  }
  return item;
}

/** Top-level microdata items (itemscope elements that are not themselves a property), with `@type`. */
export function extractMicrodata(document: Document): JsonObject[] {
  return Array.from(document.querySelectorAll('[itemscope]'))
    .filter((scope) => !scope.hasAttribute('itemprop'))
    .map((scope) => readItem(scope, 0));
}
