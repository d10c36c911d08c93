import { randomUUID } from 'node:crypto';
import type { Document, Filter as MongoFilter } from 'mongodb';
import type { Filter, IndexSpec, Update } from '../database';

/**
 * The port's filter as the driver must see it. An undefined field value means "missing or null"
 * (what the embedded store does) rather than being dropped by `ignoreUndefined`, which would turn
 * `{ teamId: undefined }` into "every team". An undefined operand of an operator is a bug.
 */
export function toMongoFilter(filter: Filter): MongoFilter<Document> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$or') {
      if (value !== undefined) out.$or = (value as Filter[]).map(toMongoFilter);
    } else if (value === undefined) {
      out[key] = null;
    } else {
      if (isOperatorObject(value)) assertOperands(key, value);
      out[key] = value;
    }
  }
  return out;
}

/**
 * Upserts insert string ids like every other write: without an `_id` equality in the filter, the
 * server would otherwise generate an ObjectId, which the port's `_id: string` cannot describe.
 */
export function toMongoUpdate(filter: Filter, update: Update, upsert: boolean): Document {
  if (!upsert || hasIdEquality(filter) || idIsSet(update)) return { ...update };
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: randomUUID() } };
}

/** Same check as the embedded store, so that a bad TTL spec fails alike on both backends. */
export function assertIndexSpec(index: IndexSpec): void {
  const fields = Object.keys(index.keys);
  if (fields.length === 0) throw new TypeError(`index ${index.name} has no keys`);
  if (index.expireAfterSeconds !== undefined && (fields.length !== 1 || fields[0]?.includes('.'))) {
    throw new TypeError(`TTL index ${index.name} must be on a single top-level Date field`);
  }
}

function hasIdEquality(filter: Filter): boolean {
  const id = filter._id;
  if (typeof id === 'string') return true;
  return isOperatorObject(id) && typeof id.$eq === 'string';
}

function idIsSet(update: Update): boolean {
  return update.$set?._id !== undefined || update.$setOnInsert?._id !== undefined;
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Date) &&
    !Array.isArray(value) &&
    Object.keys(value).some((key) => key.startsWith('$'))
  );
}

function assertOperands(path: string, condition: Record<string, unknown>): void {
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) throw new TypeError(`filter on ${path}: ${operator} has an undefined operand`);
  }
}
