import type { PageExtraction } from './page-extraction';
import { isObject } from './schema-node';
import { type ValuePath, formatPath, itemAgnostic } from './value-path';

/** Scalars compared as a reader would: text without case and spacing differences, numbers as numbers. */
function scalarKey(value: unknown): string | undefined {
  if (typeof value === 'string') return `s:${value.trim().replace(/\s+/g, ' ').toLowerCase()}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value}:${String(value)}`;
  return undefined;
}

interface PageIndex {
  url: string;
  /** Scalars by the item-agnostic path they sit at. */
  byPath: Map<string, Set<string>>;
  all: Set<string>;
}

function indexPage({ url, value }: PageExtraction): PageIndex {
  const index: PageIndex = { url, byPath: new Map(), all: new Set() };
  const walk = (node: unknown, path: ValuePath) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]));
    else if (isObject(node)) for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
    else {
      const key = scalarKey(node);
      if (key === undefined) return;
      const where = formatPath(itemAgnostic(path));
      let set = index.byPath.get(where);
      if (set === undefined) index.byPath.set(where, (set = new Set()));
      set.add(key);
      index.all.add(key);
    }
  };
  walk(value, []);
  return index;
}

const REMOVED = Symbol('removed');

/**
 * Sources for data a model merged, and a guard on what it answered: each scalar is traced to the
 * pages whose own extraction states it (at the same field first, anywhere on the page else). A
 * scalar that no page stated was made up by the merge: it is left out and its path reported.
 */
export function attributeSources(
  merged: unknown,
  pages: readonly PageExtraction[],
): { value: unknown; sources: Record<string, string[]>; invented: string[] } {
  const indexes = pages.map(indexPage);
  const sources = new Map<string, string[]>();
  const invented: string[] = [];

  const walk = (node: unknown, path: ValuePath): unknown => {
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (const item of node) {
        const kept = walk(item, [...path, out.length]);
        if (kept !== REMOVED) out.push(kept);
      }
      return out.length === 0 && node.length > 0 ? REMOVED : out;
    }
    if (isObject(node)) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const kept = walk(child, [...path, key]);
        if (kept !== REMOVED) out[key] = kept;
      }
      return Object.keys(out).length === 0 && Object.keys(node).length > 0 ? REMOVED : out;
    }
    const key = scalarKey(node);
    if (key === undefined) return node;
    const where = formatPath(itemAgnostic(path));
    let found = indexes.filter((page) => page.byPath.get(where)?.has(key) === true);
    if (found.length === 0) found = indexes.filter((page) => page.all.has(key));
    if (found.length === 0) {
      invented.push(formatPath(path));
      return REMOVED;
    }
    sources.set(formatPath(path), [...new Set(found.map((page) => page.url))]);
    return node;
  };

  const value = walk(merged, []);
  return { value: value === REMOVED ? {} : value, sources: Object.fromEntries(sources), invented };
}
