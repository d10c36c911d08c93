import { type PageExtraction, type ValueKind, canonicalJson, isEmptyValue, kindOf } from './page-extraction';
import {
  type SchemaObject,
  isObject,
  propertyNames,
  propertySchema,
  resolveSchema,
  schemaKind,
} from './schema-node';
import { type ValuePath, formatPath } from './value-path';

/** Merged data, and for each of its values (by path) the pages that stated it, in page order. */
export interface MergedExtraction {
  value: unknown;
  sources: Record<string, string[]>;
}

/** Records the pages behind every scalar under `path`. */
export function recordSources(
  sources: Map<string, string[]>,
  path: ValuePath,
  value: unknown,
  urls: readonly string[],
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => recordSources(sources, [...path, index], item, urls));
  } else if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, child] of Object.entries(value)) recordSources(sources, [...path, key], child, urls);
  } else {
    sources.set(formatPath(path), [...urls]);
  }
}

const distinct = (urls: readonly string[]) => [...new Set(urls)];

/**
 * The pages' data merged into one value without a model, in page order: objects field by field;
 * arrays joined, an item that several pages give kept once; a scalar from the first page that
 * states it. Where the schema says what a value is, values of another kind are left out; where
 * it does not, the first page's kind wins. Nothing is added that no page stated.
 */
export function mergeExtractions(pages: readonly PageExtraction[], schema?: unknown): MergedExtraction {
  const sources = new Map<string, string[]>();

  const mergeAt = (
    path: ValuePath,
    node: SchemaObject | undefined,
    entries: readonly PageExtraction[],
  ): unknown => {
    const present = entries.filter((entry) => !isEmptyValue(entry.value));
    const first = present[0];
    if (first === undefined) return undefined;
    const kind: ValueKind = schemaKind(node) ?? kindOf(first.value);
    const fitting = present.filter((entry) => kindOf(entry.value) === kind);
    if (fitting.length === 0) return undefined;

    if (kind === 'object') {
      const closed = node !== undefined && node.additionalProperties === false;
      const keys = new Set(propertyNames(node));
      if (!closed) {
        for (const entry of fitting) for (const key of Object.keys(entry.value as object)) keys.add(key);
      }
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        const merged = mergeAt(
          [...path, key],
          propertySchema(schema, node, key),
          fitting.map((entry) => ({ url: entry.url, value: (entry.value as Record<string, unknown>)[key] })),
        );
        if (merged !== undefined) out[key] = merged;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }

    if (kind === 'array') {
      const items = new Map<string, { value: unknown; urls: string[] }>();
      for (const entry of fitting) {
        for (const item of entry.value as unknown[]) {
          if (isEmptyValue(item)) continue;
          const key = canonicalJson(item);
          const known = items.get(key);
          if (known === undefined) items.set(key, { value: item, urls: [entry.url] });
          else if (!known.urls.includes(entry.url)) known.urls.push(entry.url);
        }
      }
      const list = [...items.values()];
      list.forEach((item, index) => recordSources(sources, [...path, index], item.value, item.urls));
      return list.length > 0 ? list.map((item) => item.value) : undefined;
    }

    const stated = canonicalJson(first.value);
    const agreeing = fitting.filter((entry) => canonicalJson(entry.value) === stated);
    sources.set(formatPath(path), distinct(agreeing.map((entry) => entry.url)));
    return first.value;
  };

  const value = mergeAt([], resolveSchema(schema, schema), pages);
  return { value, sources: Object.fromEntries(sources) };
}
