import type { Update } from '../database';
import { isDocument, valuesEqual } from './compare-values';
import { cloneValue } from './clone-value';
import { getAtPath, setAtPath, unsetAtPath } from './document-path';

const OPERATORS = ['$set', '$setOnInsert', '$unset', '$inc', '$push'] as const;

/**
 * Applies an update to `document` in place, with MongoDB's rules: `$setOnInsert` only when
 * inserting, two operators on overlapping paths are refused, `_id` never changes, `$inc` and
 * `$push` refuse a field of the wrong type. Undefined operands are ignored, as the driver does
 * with `ignoreUndefined`.
 */
export function applyUpdate(document: Record<string, unknown>, update: Update, inserting: boolean): void {
  assertValidUpdate(update);
  const id = document._id;

  for (const [path, value] of entries(update.$set)) setAtPath(document, path, cloneValue(value));
  if (inserting)
    for (const [path, value] of entries(update.$setOnInsert)) setAtPath(document, path, cloneValue(value));
  for (const [path] of entries(update.$unset)) unsetAtPath(document, path);
  for (const [path, amount] of entries(update.$inc)) increment(document, path, amount);
  for (const [path, value] of entries(update.$push)) push(document, path, value);

  if (id !== undefined && !valuesEqual(document._id, id)) {
    throw new Error(`Performing an update on the path '_id' would modify the immutable field '_id'`);
  }
}

/** Checked before looking for documents: the server refuses a bad update even when nothing matches. */
export function assertValidUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new TypeError('an update needs at least one operator');
  const unknown = keys.filter((key) => !(OPERATORS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new TypeError(`unsupported update operator ${unknown.join(', ')}`);
  assertNoConflicts(update);
}

function entries(operand: Record<string, unknown> | undefined): [string, unknown][] {
  return Object.entries(operand ?? {}).filter(([, value]) => value !== undefined);
}

/** `{$set: {a: 1}, $inc: {'a.b': 1}}` is an error on the server, not "last one wins". */
function assertNoConflicts(update: Update): void {
  const paths = OPERATORS.flatMap((operator) => entries(update[operator]).map(([path]) => path));
  for (const [i, a] of paths.entries()) {
    for (const b of paths.slice(i + 1)) {
      if (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)) {
        throw new Error(`Updating the path '${a}' would create a conflict at '${b}'`);
      }
    }
  }
}

function increment(document: Record<string, unknown>, path: string, amount: unknown): void {
  if (typeof amount !== 'number') throw new TypeError(`$inc on ${path} needs a number`);
  const current = getAtPath(document, path);
  if (current !== undefined && typeof current !== 'number') {
    throw new Error(`Cannot apply $inc to a value of non-numeric type at '${path}'`);
  }
  setAtPath(document, path, (current ?? 0) + amount);
}

/** Appends one value, or each of `{ $each: [...] }` (the only `$push` modifier the port allows). */
function push(document: Record<string, unknown>, path: string, value: unknown): void {
  let items = [value];
  if (isDocument(value) && '$each' in value) {
    if (Object.keys(value).length !== 1 || !Array.isArray(value.$each)) {
      throw new TypeError(`$push on ${path}: only { $each: [...] } is supported`);
    }
    items = value.$each;
  }
  const current = getAtPath(document, path);
  if (current !== undefined && !Array.isArray(current))
    throw new Error(`The field '${path}' must be an array`);
  const list = current ?? [];
  list.push(...items.map(cloneValue));
  if (current === undefined) setAtPath(document, path, list);
}
