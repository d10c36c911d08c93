import type { Sort } from '../database';
import { compareValues } from './compare-values';
import { valuesAtPath } from './document-path';

/** Sorts in place by MongoDB's rules: arrays sort by their smallest (ascending) or largest element. */
export function sortDocuments<D extends Record<string, unknown>>(documents: D[], sort: Sort): D[] {
  return documents.sort(comparator(sort));
}

/**
 * The document sortDocuments would put first, in one pass: a claim (`findOneAndUpdate` sorted by
 * `availableAt`) looks at every queued task, and sorting them all for one would cost n log n.
 * Ties keep the earlier document, as the stable sort does.
 */
export function firstDocument<D extends Record<string, unknown>>(documents: D[], sort: Sort): D | undefined {
  const compare = comparator(sort);
  let first: D | undefined;
  for (const document of documents) if (first === undefined || compare(document, first) < 0) first = document;
  return first;
}

function comparator(sort: Sort) {
  const fields = Object.entries(sort);
  return (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    for (const [path, direction] of fields) {
      const order = compareValues(sortKey(a, path, direction), sortKey(b, path, direction));
      if (order !== 0) return order * direction;
    }
    return 0;
  };
}

function sortKey(document: Record<string, unknown>, path: string, direction: 1 | -1): unknown {
  const values = valuesAtPath(document, path).filter((value) => !Array.isArray(value));
  let key: unknown = values[0];
  for (const value of values.slice(1)) {
    if (compareValues(value, key) * direction < 0) key = value;
  }
  return key;
}
