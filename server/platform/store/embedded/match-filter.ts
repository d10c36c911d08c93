import type { Filter } from '../database';
import { compareValues, isDocument, typeRank, valuesEqual } from './compare-values';
import { valuesAtPath } from './document-path';

/**
 * MongoDB's query semantics for the port's operators, evaluated in process. NeDB's matcher (the
 * embedded store's engine before this one) differed where the domain relies on MongoDB: `{f: null}` does not match a
 * missing field there, `$ne`/`$nin` match arrays when any element differs, and it has no `$eq`.
 */
export function matchesFilter(document: Record<string, unknown>, filter: Filter): boolean {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$or') {
      if (condition === undefined) continue;
      if (!Array.isArray(condition) || condition.length === 0)
        throw new TypeError('$or needs a non-empty array');
      if (!condition.some((branch: Filter) => matchesFilter(document, branch))) return false;
    } else if (key.startsWith('$')) {
      throw new TypeError(`unsupported filter operator ${key}`);
    } else if (!matchesField(document, key, condition)) {
      return false;
    }
  }
  return true;
}

/** True for `{ $gt: 1 }`-style conditions, false for plain values and documents compared whole. */
export function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return isDocument(value) && Object.keys(value).some((key) => key.startsWith('$'));
}

function matchesField(document: Record<string, unknown>, path: string, condition: unknown): boolean {
  const values = valuesAtPath(document, path);
  if (!isOperatorObject(condition)) return equalsAny(values, condition ?? null);
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) throw new TypeError(`filter on ${path}: ${operator} has an undefined operand`);
    if (!matchesOperator(values, path, operator, operand)) return false;
  }
  return true;
}

function matchesOperator(values: unknown[], path: string, operator: string, operand: unknown): boolean {
  switch (operator) {
    case '$eq':
      return equalsAny(values, operand);
    case '$ne':
      return !equalsAny(values, operand);
    case '$in':
      return listOperand(path, operator, operand).some((candidate) => equalsAny(values, candidate));
    case '$nin':
      return !listOperand(path, operator, operand).some((candidate) => equalsAny(values, candidate));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return comparesAny(values, operator, operand);
    case '$exists':
      return values.some((value) => value !== undefined) === Boolean(operand);
    default:
      throw new TypeError(`filter on ${path}: unsupported operator ${operator}`);
  }
}

/** Null matches null and missing; anything else needs an equal value (or array element). */
function equalsAny(values: unknown[], target: unknown): boolean {
  if (target === null) return values.some((value) => value === null || value === undefined);
  return values.some((value) => value !== undefined && valuesEqual(value, target));
}

/** Ranges only compare values of the same BSON type, as on the server: `{$gt: 1}` never matches a string. */
function comparesAny(values: unknown[], operator: '$gt' | '$gte' | '$lt' | '$lte', target: unknown): boolean {
  if (target === null) return operator === '$gte' || operator === '$lte' ? equalsAny(values, null) : false;
  return values.some((value) => {
    if (value === undefined || value === null || typeRank(value) !== typeRank(target)) return false;
    const order = compareValues(value, target);
    if (operator === '$gt') return order > 0;
    if (operator === '$gte') return order >= 0;
    if (operator === '$lt') return order < 0;
    return order <= 0;
  });
}

function listOperand(path: string, operator: string, operand: unknown): unknown[] {
  if (!Array.isArray(operand)) throw new TypeError(`filter on ${path}: ${operator} needs an array`);
  return operand;
}
