import { resolveUrl } from '../../../../shared/html/resolve-url';
import type { JsonObject } from './structured-data';

/**
 * Reading schema.org values as pages publish them, in JSON-LD (JSON values) or microdata (strings
 * and nested items): a property may be one value or a list, a thing may be a name or an object.
 */

/** Objects visited at most when walking a page's structured data (nested items included). */
const MAX_WALKED_OBJECTS = 20_000;

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The property's values as a list, whatever the page wrote. */
export const listOf = (value: unknown): unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

/** `@type` names without their vocabulary URL: `https://schema.org/Product` → `Product`. */
export function typesOf(object: JsonObject): string[] {
  return listOf(object['@type'])
    .filter((type): type is string => typeof type === 'string')
    .flatMap((type) => type.split(/\s+/))
    .map((type) => type.replace(/^.*[/#]/, ''))
    .filter((type) => type !== '');
}

export const hasType = (object: JsonObject, names: readonly string[]) =>
  typesOf(object).some((type) => names.includes(type));

/**
 * Every object in the structured data, nested ones included (a VideoObject inside an Article, an
 * Offer inside a Product), depth first in page order, each once; bounded for hostile pages.
 */
export function walkObjects(roots: readonly JsonObject[]): JsonObject[] {
  const found: JsonObject[] = [];
  const seen = new Set<unknown>();
  const stack: unknown[] = [...roots].reverse();
  while (stack.length > 0 && found.length < MAX_WALKED_OBJECTS) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) stack.push(value[index]);
    } else if (isObject(value) && !seen.has(value)) {
      seen.add(value);
      found.push(value);
      const children = Object.values(value);
      for (let index = children.length - 1; index >= 0; index -= 1) {
        const child = children[index];
        if (typeof child === 'object' && child !== null) stack.push(child);
      }
    }
  }
  return found;
}

/** Text of a value: a string, a number, or an object's `name` / `@value`; the first of a list. */
export function textOf(value: unknown): string | undefined {
  for (const item of listOf(value)) {
    if (typeof item === 'string' && item.trim() !== '') return item.replace(/\s+/g, ' ').trim();
    if (typeof item === 'number' && Number.isFinite(item)) return String(item);
    if (isObject(item)) {
      const inner = textOf(item.name) ?? textOf(item['@value']);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/**
 * A number as pages write prices and counts: `39.9`, `"39.90"`, `"1,299.00"`, `"250 calories"`.
 * A value it cannot read with certainty (`"39,90"` could be either) is undefined, never a guess.
 */
export function numberOf(value: unknown): number | undefined {
  const first = listOf(value)[0];
  if (typeof first === 'number') return Number.isFinite(first) ? first : undefined;
  if (isObject(first)) return numberOf(first['@value'] ?? first.value);
  if (typeof first !== 'string') return undefined;
  const match = /^\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*[\p{L}]+)?\s*$/u.exec(first);
  if (match === null) return undefined;
  const number = Number(`${(match[1] as string).replace(/,/g, '')}${match[2] ?? ''}`);
  return Number.isFinite(number) ? number : undefined;
}

/** An http(s) URL of a value (a string, or an object's `url`, `contentUrl` or `@id`), made absolute. */
export function urlOf(value: unknown, base: string): string | undefined {
  for (const item of listOf(value)) {
    const raw = typeof item === 'string' ? item : isObject(item) ? (item.url ?? item.contentUrl) : undefined;
    const candidate =
      typeof raw === 'string' ? raw : isObject(raw) || Array.isArray(raw) ? urlOf(raw, base) : undefined;
    if (candidate === undefined) continue;
    const absolute = resolveUrl(candidate.trim(), base);
    if (absolute !== undefined && /^https?:/i.test(absolute)) return absolute;
  }
  return undefined;
}

/** Images of a value: URLs or ImageObjects (with their caption or name as alt), absolute, once each. */
export function imagesOf(value: unknown, base: string): Array<{ url: string; alt?: string }> {
  const images: Array<{ url: string; alt?: string }> = [];
  for (const item of listOf(value)) {
    const url = urlOf(item, base);
    if (url === undefined || images.some((image) => image.url === url)) continue;
    const alt = isObject(item) ? (textOf(item.caption) ?? textOf(item.name)) : undefined;
    images.push(alt === undefined ? { url } : { url, alt });
  }
  return images;
}

/** schema.org ItemAvailability values that mean the thing can be had now. */
const IN_STOCK = new Set(['InStock', 'InStoreOnly', 'OnlineOnly', 'LimitedAvailability']);
/** …and those that mean it cannot (pre-orders and back orders are not in stock yet). */
const NOT_IN_STOCK = new Set([
  'OutOfStock',
  'SoldOut',
  'Discontinued',
  'PreOrder',
  'PreSale',
  'BackOrder',
  'MadeToOrder',
  'Reserved',
]);

/** `https://schema.org/InStock` (or `InStock`) as `{ inStock, text }`; undefined when not one of them. */
export function availabilityOf(value: unknown): { inStock: boolean; text: string } | undefined {
  const raw = textOf(value) ?? urlOf(value, 'https://schema.org/');
  if (raw === undefined) return undefined;
  const name = raw.replace(/^.*[/#]/, '');
  if (IN_STOCK.has(name)) return { inStock: true, text: name };
  if (NOT_IN_STOCK.has(name)) return { inStock: false, text: name };
  return undefined;
}
