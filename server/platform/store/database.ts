/**
 * The storage port: the portable subset of MongoDB that every backend here supports (MongoDB 6+
 * through the official driver, FerretDB, and the embedded store). Domain stores are written once
 * against it; driver types never leave the adapters.
 *
 * Documents are plain JSON-like objects with a string `_id`. Filters and updates use MongoDB's
 * syntax, restricted to the operators listed below, which all three backends implement alike.
 */

/** A stored document: string ids only (`crypto.randomUUID()` or a domain key). */
export interface StoredDocument {
  _id: string;
}

type Scalar = string | number | boolean | null | Date;

/** Comparison operators a field condition may use. */
export interface FieldCondition {
  $eq?: Scalar;
  $ne?: Scalar;
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
  $in?: Scalar[];
  $nin?: Scalar[];
  $exists?: boolean;
}

/** Field paths (dotted for nested fields) to a value or a condition, optionally combined with $or. */
export interface Filter {
  // The index signature must admit $or's array too; only `$or` may hold one.
  [path: string]: Scalar | FieldCondition | Filter[] | undefined;
  $or?: Filter[];
}

/** Update operators. A document is replaced only through `replaceOne`. */
export interface Update {
  $set?: Record<string, unknown>;
  $setOnInsert?: Record<string, unknown>;
  $unset?: Record<string, true>;
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
}

/** 1 ascending, -1 descending, applied in key order. */
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

export interface IndexSpec {
  /** Fields in order with their direction. */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  /** A TTL index on a Date field: documents older than this are removed by the backend (a bonus; never the only expiry). */
  expireAfterSeconds?: number;
  name: string;
}

export interface Collection<T extends StoredDocument> {
  readonly name: string;
  /** Throws DuplicateKeyError when a unique index (or `_id`) is already taken. */
  insertOne(document: T): Promise<void>;
  /**
   * Inserts each document unless a unique index (or `_id`) already holds its key, in the store or
   * earlier in the same call: insertIfAbsent for many documents in one round trip. Returns how
   * many were inserted. Not atomic: after an error (StoreUnavailableError) some may be stored;
   * calling again with the same documents is safe.
   */
  insertManyIfAbsent(documents: readonly T[]): Promise<{ inserted: number }>;
  findOne(filter: Filter, options?: { sort?: Sort }): Promise<T | undefined>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter: Filter): Promise<number>;
  /** Returns how many documents matched (0 or 1); with `upsert`, inserts when none did. */
  updateOne(
    filter: Filter,
    update: Update,
    options?: { upsert?: boolean },
  ): Promise<{ matched: number; upserted: boolean }>;
  updateMany(filter: Filter, update: Update): Promise<{ matched: number }>;
  /**
   * Atomically updates the first document matching `filter` (in `sort` order) and returns it as it
   * is after the update, or undefined when none matched and no upsert was asked for. This is the
   * one primitive for claims and compare-and-set: a document cannot be claimed twice.
   */
  findOneAndUpdate(
    filter: Filter,
    update: Update,
    options?: { sort?: Sort; upsert?: boolean },
  ): Promise<T | undefined>;
  replaceOne(filter: Filter, document: T, options?: { upsert?: boolean }): Promise<{ matched: number }>;
  deleteOne(filter: Filter): Promise<{ deleted: number }>;
  deleteMany(filter: Filter): Promise<{ deleted: number }>;
  /** Idempotent: creating an index that exists with the same spec is a no-op. */
  createIndex(index: IndexSpec): Promise<void>;
}

export interface Database {
  readonly kind: 'mongodb' | 'embedded';
  collection<T extends StoredDocument>(name: string): Collection<T>;
  /** Resolves when the backend answers; throws StoreUnavailableError otherwise. */
  ping(): Promise<void>;
  /**
   * Whether conditional updates and `$inc` are isolated between processes sharing the database
   * (MongoDB: yes; FerretDB 1.x: no, it reads and then writes). Where they are not, counters kept
   * beside the truth (a team's running credit totals beside its ledger) drift under concurrent
   * instances and are reconciled from the truth.
   */
  isolatesUpdates(): Promise<boolean>;
  close(): Promise<void>;
}

/** A unique index (or `_id`) refused a write. */
export class DuplicateKeyError extends Error {
  constructor(collection: string, detail: string) {
    super(`duplicate key in ${collection}: ${detail}`);
    this.name = 'DuplicateKeyError';
  }
}

/** The backend cannot be reached right now; the request may be retried later. */
export class StoreUnavailableError extends Error {
  constructor(cause: string) {
    super(`the database is unavailable: ${cause}`);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * Inserts `document` unless a unique index (or `_id`) already holds its key: the idempotent write
 * behind enqueues, charges and one-time keys. Returns whether it was inserted.
 */
export async function insertIfAbsent<T extends StoredDocument>(
  collection: Collection<T>,
  document: T,
): Promise<boolean> {
  try {
    await collection.insertOne(document);
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
}
