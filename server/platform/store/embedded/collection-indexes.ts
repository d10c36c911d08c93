import { DuplicateKeyError, type Filter } from '../database';
import { isDocument } from './compare-values';
import type { LoggedIndex } from './log-line';
import { valuesAtPath } from './document-path';

type Row = Record<string, unknown> & { _id: string };
type Lookup = string | number | boolean;

/**
 * The indexes of one in-memory collection. Each declared index does two things here:
 * - its first field gets a value → ids map, so a filter with an equality on that field (`jobId`,
 *   `state`, `teamId` in the domain's queries) reads only the matching documents, not all of them;
 * - a unique index keeps its key → id map and refuses a second document with the same key, as
 *   MongoDB does (a missing field counts as null).
 * A TTL index's documents past their expiry are skipped by reads and removed by the collection.
 */
export class CollectionIndexes {
  constructor(private readonly collection: string) {}

  /** By indexKey: fields sorted and joined, the identity of an index whatever its name or directions. */
  private readonly declared = new Map<string, LoggedIndex>();
  private readonly names = new Map<string, string>();
  private readonly lookups = new Map<string, Map<Lookup, Set<string>>>();
  /** Per unique index: its fields, and which document holds each key. */
  private readonly uniques = new Map<string, { fields: string[]; owners: Map<string, string> }>();
  private readonly ttls = new Map<string, number>();

  /** Throws for an index whose options differ from one already declared on the same fields. */
  declare(index: LoggedIndex & { name?: string }, documents: Iterable<Row>): LoggedIndex | undefined {
    const { fields, name } = index;
    if (fields.length === 0) throw new TypeError(`index ${name ?? ''} has no keys`);
    if (index.expireAfterSeconds !== undefined && (fields.length !== 1 || fields[0]?.includes('.'))) {
      throw new TypeError(`TTL index ${name ?? ''} must be on a single top-level Date field`);
    }
    const unique = index.unique === true;
    const key = indexKey(fields);
    const named = name === undefined ? undefined : this.names.get(name);
    if (named !== undefined && named !== key)
      throw new Error(`index ${name} already exists on other fields (${named})`);
    const existing = this.declared.get(key);
    if (existing !== undefined) {
      if (existing.unique !== unique || existing.expireAfterSeconds !== index.expireAfterSeconds)
        throw new Error(`index ${name ?? key}: an index on ${key} already exists with different options`);
      if (name !== undefined) this.names.set(name, key);
      return undefined;
    }
    // Walked twice below (unique keys, then lookups): an iterator would be spent after the first.
    const rows = [...documents];
    const declared: LoggedIndex = {
      fields,
      unique,
      ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
    };
    if (unique) {
      // Built aside first: existing duplicates refuse the index and leave the collection as it was.
      const owners = new Map<string, string>();
      for (const row of rows) {
        const value = uniqueValue(row, fields);
        const owner = owners.get(value);
        if (owner !== undefined)
          throw new DuplicateKeyError(this.collection, `index ${name ?? key}: key ${value} is held twice`);
        owners.set(value, row._id);
      }
      this.uniques.set(key, { fields, owners });
    }
    this.declared.set(key, declared);
    if (name !== undefined) this.names.set(name, key);
    if (declared.expireAfterSeconds !== undefined)
      this.ttls.set(fields[0] as string, declared.expireAfterSeconds);
    const first = fields[0] as string;
    if (first !== '_id' && !this.lookups.has(first)) {
      const lookup = new Map<Lookup, Set<string>>();
      this.lookups.set(first, lookup);
      for (const row of rows) for (const value of lookupValues(row, first)) addId(lookup, value, row._id);
    }
    return declared;
  }

  /** Every declared index, for the compacted file. */
  all(): LoggedIndex[] {
    return [...this.declared.values()];
  }

  /** Throws DuplicateKeyError when `row` would take a unique key another document holds. */
  assertUnique(row: Row): void {
    for (const { fields, owners } of this.uniques.values()) {
      const value = uniqueValue(row, fields);
      const owner = owners.get(value);
      if (owner !== undefined && owner !== row._id)
        throw new DuplicateKeyError(this.collection, `key ${value} is already taken`);
    }
  }

  add(row: Row): void {
    this.replace(undefined, row);
  }

  remove(row: Row): void {
    this.replace(row, undefined);
  }

  /** Moves a document's entries from what it was to what it is; unchanged values are left alone. */
  replace(previous: Row | undefined, next: Row | undefined): void {
    for (const [path, lookup] of this.lookups) {
      const before = previous === undefined ? NONE : lookupValues(previous, path);
      const after = next === undefined ? NONE : lookupValues(next, path);
      for (const value of before) {
        if (after.has(value)) continue;
        const ids = lookup.get(value);
        ids?.delete((previous as Row)._id);
        if (ids?.size === 0) lookup.delete(value);
      }
      for (const value of after) if (!before.has(value)) addId(lookup, value, (next as Row)._id);
    }
    for (const { fields, owners } of this.uniques.values()) {
      const before = previous === undefined ? undefined : uniqueValue(previous, fields);
      const after = next === undefined ? undefined : uniqueValue(next, fields);
      if (before === after) continue;
      if (before !== undefined && owners.get(before) === (previous as Row)._id) owners.delete(before);
      if (after !== undefined) owners.set(after, (next as Row)._id);
    }
  }

  /**
   * The ids a filter can match, narrowed by the smallest lookup one of its equalities selects;
   * undefined when no equality has a lookup (every document is a candidate). Candidates are then
   * matched against the whole filter.
   */
  candidates(filter: Filter): Set<string> | undefined {
    let best: Set<string> | undefined;
    for (const path in filter) {
      const lookup = this.lookups.get(path);
      if (lookup === undefined) continue;
      const wanted = equalityValues(filter[path]);
      if (wanted === undefined) continue;
      let ids: Set<string>;
      if (wanted.length === 1) ids = lookup.get(wanted[0] as Lookup) ?? new Set();
      else {
        ids = new Set();
        for (const value of wanted) for (const id of lookup.get(value) ?? []) ids.add(id);
      }
      if (best === undefined || ids.size < best.size) best = ids;
      if (best.size === 0) break;
    }
    return best;
  }

  isExpired(row: Row, now: number): boolean {
    for (const [field, seconds] of this.ttls) {
      const value = row[field];
      // As in MongoDB: a document whose field is not a date (or holds no date) never expires.
      const dates = (Array.isArray(value) ? value : [value]).filter(
        (item): item is Date => item instanceof Date,
      );
      if (dates.length > 0 && Math.min(...dates.map((date) => date.getTime())) + seconds * 1000 <= now)
        return true;
    }
    return false;
  }

  hasTtl(): boolean {
    return this.ttls.size > 0;
  }
}

function isLookup(value: unknown): value is Lookup {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

const NONE: ReadonlySet<Lookup> = new Set();

/** Scalars a path reaches, arrays' elements included (an equality matches an array holding the value). */
function lookupValues(row: Row, path: string): ReadonlySet<Lookup> {
  const values = new Set<Lookup>();
  for (const value of valuesAtPath(row, path)) if (isLookup(value)) values.add(value);
  return values;
}

function addId(lookup: Map<Lookup, Set<string>>, value: Lookup, id: string): void {
  let ids = lookup.get(value);
  if (ids === undefined) lookup.set(value, (ids = new Set()));
  ids.add(id);
}

/**
 * The values an equality condition asks for, when a lookup can answer it: a plain scalar, `$eq` or
 * `$in` of scalars (alone or beside other operators, which the full match checks afterwards).
 * Null, dates and documents are left to the scan: null also matches a missing field.
 */
function equalityValues(condition: Filter[string]): Lookup[] | undefined {
  if (isLookup(condition)) return [condition];
  if (!isDocument(condition)) return undefined;
  if (isLookup(condition.$eq)) return [condition.$eq];
  const list = condition.$in;
  if (Array.isArray(list) && list.every(isLookup)) return list;
  return undefined;
}

/** Indexes are told apart by their fields, whatever their order or directions (NeDB's rule too). */
export function indexKey(fields: readonly string[]): string {
  return [...fields].sort().join(',');
}

/** A unique index's key for a document: its fields' values in order, a missing one as null. */
function uniqueValue(row: Row, fields: string[]): string {
  return JSON.stringify(
    fields.map((field) => {
      const [value] = valuesAtPath(row, field);
      if (value === undefined) return null;
      return value instanceof Date ? { $date: value.getTime() } : value;
    }),
  );
}
