import {
  DuplicateKeyError,
  type Collection,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type StoredDocument,
  type Update,
} from '../database';
import { applyUpdate, assertValidUpdate } from './apply-update';
import { cloneDocument } from './clone-value';
import type { CollectionFile } from './collection-file';
import { CollectionIndexes, indexKey } from './collection-indexes';
import { isDocument } from './compare-values';
import { encodeDeletion, encodeIndex, encodeRow, type LoggedIndex, type LogLine } from './log-line';
import { matchesFilter } from './match-filter';
import { firstDocument, sortDocuments } from './sort-documents';
import { upsertDocument } from './upsert-document';

type Row = Record<string, unknown> & { _id: string };

export interface EmbeddedCollection<T extends StoredDocument> {
  collection: Collection<T>;
  /** Writes the file anew with one line per document (and per index): its history is dropped. */
  compact(): Promise<void>;
  /** Whether the file held more than one line per document and index when it was loaded. */
  loadedHistory: boolean;
  /** Waits for the writes asked for so far, then closes the file. */
  close(): Promise<void>;
}

/**
 * One collection held in memory, its history appended to its file (collection-file.ts).
 * Matching, sorting and updating follow MongoDB's rules in our own code (match-filter.ts,
 * apply-update.ts, sort-documents.ts). Every operation runs on the in-memory documents in one
 * synchronous step, so a read-modify-write such as findOneAndUpdate cannot interleave with
 * another write: a document cannot be claimed twice. The operation's promise resolves once its
 * change is in the file. Stored documents never leave: callers get copies.
 */
export function createEmbeddedCollection<T extends StoredDocument>(
  name: string,
  lines: readonly LogLine[],
  file: CollectionFile,
  assertOpen: () => void,
): EmbeddedCollection<T> {
  const rows = new Map<string, Row>();
  const logged = new Map<string, LoggedIndex>();
  for (const line of lines) {
    if (line.kind === 'row') rows.set(line.row._id, line.row);
    else if (line.kind === 'deleted') rows.delete(line.id);
    else if (line.kind === 'index') logged.set(indexKey(line.index.fields), line.index);
    else logged.delete(indexKey(line.key.split(',')));
  }
  const indexes = new CollectionIndexes(name);
  for (const index of logged.values()) indexes.declare(index, []);
  for (const row of rows.values()) indexes.add(row);
  const loadedHistory = lines.length > rows.size + logged.size;

  /** Runs `work` on the documents now and resolves once the lines it appended are in the file. */
  function operation<R>(work: (changes: string[]) => R): Promise<R> {
    try {
      assertOpen();
      const changes: string[] = [];
      const result = work(changes);
      if (changes.length === 0) return Promise.resolve(result);
      return file.append(changes.join('\n')).then(() => result);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function put(row: Row, changes: string[]): void {
    indexes.replace(rows.get(row._id), row);
    rows.set(row._id, row);
    changes.push(encodeRow(row));
  }

  function remove(row: Row, changes: string[]): void {
    indexes.remove(row);
    rows.delete(row._id);
    changes.push(encodeDeletion(row._id));
  }

  /** The stored documents matching `filter` (not copies), sorted and sliced as `options` asks. */
  function select(filter: Filter, changes: string[], options: FindOptions = {}): Row[] {
    const now = Date.now();
    const matched: Row[] = [];
    const expired: Row[] = [];
    for (const row of candidates(filter)) {
      if (indexes.hasTtl() && indexes.isExpired(row, now)) expired.push(row);
      else if (matchesFilter(row, filter)) matched.push(row);
    }
    for (const row of expired) remove(row, changes);
    if (options.sort && options.limit === 1 && !options.skip) {
      const first = firstDocument(matched, options.sort);
      return first === undefined ? [] : [first];
    }
    const sorted = options.sort ? sortDocuments(matched, options.sort) : matched;
    const skip = options.skip ?? 0;
    // As in MongoDB, a limit of 0 means "no limit".
    return skip === 0 && !options.limit
      ? sorted
      : sorted.slice(skip, options.limit ? skip + options.limit : undefined);
  }

  function candidates(filter: Filter): Row[] {
    const id = filter._id;
    if (typeof id === 'string') return present([id]);
    if (isDocument(id) && Array.isArray(id.$in) && id.$in.every((value) => typeof value === 'string'))
      return present(id.$in as string[]);
    const ids = indexes.candidates(filter);
    // Copied into an array: updates change the lookup sets while the caller walks the rows.
    return ids === undefined ? [...rows.values()] : present(ids);
  }

  function present(ids: Iterable<string>): Row[] {
    const found: Row[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (row !== undefined) found.push(row);
    }
    return found;
  }

  function insert(row: Row, changes: string[]): void {
    if (typeof row._id !== 'string') throw new TypeError(`${name}: _id must be a string`);
    if (rows.has(row._id))
      throw new DuplicateKeyError(name, `key ${JSON.stringify({ _id: row._id })} is already taken`);
    indexes.assertUnique(row);
    put(row, changes);
  }

  /** Applies `change` to a copy of each document and stores the copies: a refused change leaves the original. */
  function update(
    filter: Filter,
    change: Update,
    options: FindOptions & { upsert?: boolean },
    changes: string[],
  ): { rows: Row[]; upserted: boolean } {
    assertValidUpdate(change);
    const found = select(filter, changes, options);
    if (found.length === 0) {
      if (!options.upsert) return { rows: [], upserted: false };
      const row = upsertDocument(filter, change) as Row;
      insert(row, changes);
      return { rows: [row], upserted: true };
    }
    const updated: Row[] = [];
    for (const row of found) {
      const next = cloneDocument(row);
      applyUpdate(next, change, false);
      indexes.assertUnique(next);
      put(next, changes);
      updated.push(next);
    }
    return { rows: updated, upserted: false };
  }

  const copies = (found: Row[]) => found.map((row) => cloneDocument(row) as unknown as T);

  const collection: Collection<T> = {
    name,
    insertOne: (document) =>
      operation((changes) => insert(cloneDocument(document) as unknown as Row, changes)),
    insertManyIfAbsent: (documents) =>
      operation((changes) => {
        // Checked first: an error half-way would leave rows in memory whose lines never reach the file.
        if (documents.some((document) => typeof document._id !== 'string'))
          throw new TypeError(`${name}: _id must be a string`);
        let inserted = 0;
        for (const document of documents) {
          try {
            insert(cloneDocument(document) as unknown as Row, changes);
            inserted += 1;
          } catch (error) {
            if (!(error instanceof DuplicateKeyError)) throw error;
          }
        }
        return { inserted };
      }),
    findOne: (filter, options) =>
      operation((changes) => copies(select(filter, changes, { ...options, limit: 1 }))[0]),
    find: (filter, options) => operation((changes) => copies(select(filter, changes, options))),
    countDocuments: (filter) => operation((changes) => select(filter, changes).length),
    updateOne: (filter, change, options) =>
      operation((changes) => {
        const { rows: updated, upserted } = update(
          filter,
          change,
          { limit: 1, upsert: options?.upsert === true },
          changes,
        );
        return { matched: upserted ? 0 : updated.length, upserted };
      }),
    updateMany: (filter, change) =>
      operation((changes) => ({ matched: update(filter, change, {}, changes).rows.length })),
    findOneAndUpdate: (filter, change, options) =>
      operation((changes) => {
        const [row] = update(filter, change, { ...options, limit: 1 }, changes).rows;
        return row === undefined ? undefined : (cloneDocument(row) as unknown as T);
      }),
    replaceOne: (filter, document, options) =>
      operation((changes) => {
        const [found] = select(filter, changes, { limit: 1 });
        const row = cloneDocument(document) as unknown as Row;
        if (found) {
          if (row._id !== found._id)
            throw new Error(`${name}: replaceOne would modify the immutable field '_id'`);
          indexes.assertUnique(row);
          put(row, changes);
          return { matched: 1 };
        }
        if (options?.upsert) insert(row, changes);
        return { matched: 0 };
      }),
    deleteOne: (filter) =>
      operation((changes) => {
        const [found] = select(filter, changes, { limit: 1 });
        if (found) remove(found, changes);
        return { deleted: found ? 1 : 0 };
      }),
    deleteMany: (filter) =>
      operation((changes) => {
        const found = select(filter, changes);
        for (const row of found) remove(row, changes);
        return { deleted: found.length };
      }),
    createIndex: (index: IndexSpec) =>
      operation((changes) => {
        const declared = indexes.declare(
          {
            name: index.name,
            fields: Object.keys(index.keys),
            unique: index.unique === true,
            ...(index.expireAfterSeconds === undefined
              ? {}
              : { expireAfterSeconds: index.expireAfterSeconds }),
          },
          rows.values(),
        );
        if (declared !== undefined) changes.push(encodeIndex(declared));
      }),
  };

  return {
    collection,
    loadedHistory,
    compact: () =>
      file.rewrite(() => {
        const now = Date.now();
        const out = indexes.all().map((index) => `${encodeIndex(index)}\n`);
        for (const row of [...rows.values()]) {
          // Expired documents are dropped here too, not only when a read meets them.
          if (indexes.hasTtl() && indexes.isExpired(row, now)) {
            indexes.remove(row);
            rows.delete(row._id);
          } else out.push(`${encodeRow(row)}\n`);
        }
        return out.join('');
      }),
    close: () => file.close(),
  };
}
