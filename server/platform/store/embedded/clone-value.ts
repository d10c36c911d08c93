import { isDocument } from './compare-values';

/**
 * A deep copy as the driver would store it with `ignoreUndefined`: undefined fields disappear
 * (inside arrays they become null, as in BSON and JSON), Dates stay Dates. Stored documents never
 * share objects with the caller's.
 */
export function cloneValue(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value))
    return value.map((element) => (element === undefined ? null : cloneValue(element)));
  if (isDocument(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field !== undefined) copy[key] = cloneValue(field);
    }
    return copy;
  }
  return value;
}

export function cloneDocument<T extends object>(document: T): T {
  return cloneValue(document) as T;
}
