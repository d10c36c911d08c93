import { isObject } from './schema-node';

/** What one page gave: the data extracted from it, and the page's URL (the sources name it). */
export interface PageExtraction {
  url: string;
  value: unknown;
}

/** Extracted data nested deeper than this is not merged (a model may answer any depth). */
export const MAX_VALUE_DEPTH = 64;

/**
 * A page's extracted value made safe to walk and store: `__proto__` keys dropped (a page's
 * JSON-LD may carry one, and assigning it would change an object's prototype), and undefined
 * when it nests deeper than MAX_VALUE_DEPTH.
 */
export function cleanPageValue(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) throw new TooDeepError();
  if (Array.isArray(value)) return value.map((item) => cleanPageValue(item, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key !== '__proto__') out[key] = cleanPageValue(child, depth + 1);
  }
  return out;
}

export class TooDeepError extends Error {
  override name = 'TooDeepError';
  constructor() {
    super(`extracted data is nested deeper than ${MAX_VALUE_DEPTH} levels`);
  }
}

/** Nothing stated: absent, null, a blank string, an empty list or object. */
export const isEmptyValue = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0) ||
  (isObject(value) && Object.keys(value).length === 0);

export type ValueKind = 'object' | 'array' | 'scalar';

export const kindOf = (value: unknown): ValueKind =>
  Array.isArray(value) ? 'array' : isObject(value) ? 'object' : 'scalar';

/** The value as text with object keys sorted, so that equal values compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
