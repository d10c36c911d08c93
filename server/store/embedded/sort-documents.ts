import type { Sort } from '../database';
import { compareValues } from './compare-values';
import { valuesAtPath } from './document-path';

/** Sorts in place by MongoDB's rules: arrays sort by their smallest (ascending) or largest element. */
export function sortDocuments<D extends Record<string, unknown>>(documents: D[], sort: Sort): D[] {
  const fields = Object.entries(sort);
  return documents.sort((a, b) => {
    for (const [path, direction] of fields) {
      const order = compareValues(sortKey(a, path, direction), sortKey(b, path, direction));
      if (order !== 0) return order * direction;
    }
    return 0;
  });
}

function sortKey(document: Record<string, unknown>, path: string, direction: 1 | -1): unknown {
  const values = valuesAtPath(document, path).filter((value) => !Array.isArray(value));
  let key: unknown = values[0];
  for (const value of values.slice(1)) {
    if (compareValues(value, key) * direction < 0) key = value;
  }
  return key;
}
