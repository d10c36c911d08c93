import type Datastore from '@seald-io/nedb';
import type { Collection, Filter, FindOptions, IndexSpec, StoredDocument, Update } from '../database';
import { escapeKeys, unescapeKeysInPlace } from '../escape-keys';
import { applyUpdate, assertValidUpdate } from './apply-update';
import { cloneDocument } from './clone-value';
import { ensureEmbeddedIndex } from './ensure-embedded-index';
import { matchesFilter } from './match-filter';
import { sortDocuments } from './sort-documents';
import { toEmbeddedError } from './to-embedded-error';
import { upsertDocument } from './upsert-document';

type Row = Record<string, unknown> & { _id: string };

export interface EmbeddedCollection<T extends StoredDocument> {
  collection: Collection<T>;
  /** Resolves once every write queued so far has finished. */
  idle(): Promise<void>;
}

/**
 * One collection on a NeDB datastore. NeDB stores, indexes (unique constraints included) and
 * expires documents; matching, sorting and updating follow MongoDB's rules in our own code.
 * Every write runs alone in a per-collection queue: a read-modify-write such as
 * findOneAndUpdate cannot interleave with another write, so a document cannot be claimed twice.
 */
export function createEmbeddedCollection<T extends StoredDocument>(
  name: string,
  datastore: Datastore<Row>,
  ready: Promise<void>,
  assertOpen: () => void,
): EmbeddedCollection<T> {
  let queue: Promise<unknown> = ready;

  const indexNames = new Map<string, string>();

  function exclusive<R>(work: () => Promise<R>): Promise<R> {
    try {
      assertOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    const run = queue.then(() => ready).then(work);
    queue = run.catch(() => undefined);
    return run.catch((error: unknown) => {
      throw toEmbeddedError(error, name);
    });
  }

  /** Reads from outside the queue; they see each write whole, since NeDB applies one at a time. */
  async function read(filter: Filter, options: FindOptions = {}): Promise<Row[]> {
    assertOpen();
    await ready;
    return select(filter, options);
  }

  async function select(filter: Filter, options: FindOptions = {}): Promise<Row[]> {
    const rows = await datastore.findAsync(toNedbQuery(filter));
    for (const row of rows) unescapeKeysInPlace(row);
    const sorted = options.sort ? sortDocuments(rows, options.sort) : rows;
    const skip = options.skip ?? 0;
    // As in MongoDB, a limit of 0 means "no limit".
    return sorted.slice(skip, options.limit ? skip + options.limit : undefined);
  }

  async function insert(row: Row): Promise<void> {
    if (typeof row._id !== 'string') throw new TypeError(`${name}: _id must be a string`);
    await datastore.insertAsync(escapeKeys(row) as Row);
  }

  // NeDB replaces the stored document when the update has no operators; it re-checks unique indexes.
  const replace = (row: Row) => datastore.updateAsync({ _id: row._id }, escapeKeys(row) as Row, {});

  async function update(filter: Filter, change: Update, options: FindOptions & { upsert?: boolean }) {
    assertValidUpdate(change);
    const found = await select(filter, options);
    if (found.length === 0) {
      if (!options.upsert) return { rows: [], upserted: false };
      const row = upsertDocument(filter, change) as Row;
      await insert(row);
      return { rows: [row], upserted: true };
    }
    for (const row of found) {
      applyUpdate(row, change, false);
      await replace(row);
    }
    return { rows: found, upserted: false };
  }

  const collection: Collection<T> = {
    name,
    insertOne: (document) => exclusive(() => insert(cloneDocument(document) as unknown as Row)),
    findOne: async (filter, options) => (await read(filter, { ...options, limit: 1 }))[0] as T | undefined,
    find: async (filter, options) => (await read(filter, options)) as unknown as T[],
    // NeDB counts the documents it matched without copying them, as find would.
    countDocuments: async (filter) => {
      assertOpen();
      await ready;
      return datastore.countAsync(toNedbQuery(filter));
    },
    updateOne: (filter, change, options) =>
      exclusive(async () => {
        const { rows, upserted } = await update(filter, change, {
          limit: 1,
          upsert: options?.upsert === true,
        });
        return { matched: upserted ? 0 : rows.length, upserted };
      }),
    updateMany: (filter, change) =>
      exclusive(async () => ({ matched: (await update(filter, change, {})).rows.length })),
    findOneAndUpdate: (filter, change, options) =>
      exclusive(async () => {
        const { rows } = await update(filter, change, { ...options, limit: 1 });
        return rows[0] as T | undefined;
      }),
    replaceOne: (filter, document, options) =>
      exclusive(async () => {
        const [found] = await select(filter, { limit: 1 });
        const row = cloneDocument(document) as unknown as Row;
        if (found) {
          if (row._id !== found._id)
            throw new Error(`${name}: replaceOne would modify the immutable field '_id'`);
          await replace(row);
          return { matched: 1 };
        }
        if (options?.upsert) await insert(row);
        return { matched: 0 };
      }),
    deleteOne: (filter) =>
      exclusive(async () => {
        const [found] = await select(filter, { limit: 1 });
        return { deleted: found ? await datastore.removeAsync({ _id: found._id }, {}) : 0 };
      }),
    deleteMany: (filter) =>
      exclusive(async () => {
        const ids = (await select(filter)).map((row) => row._id);
        return {
          deleted: ids.length === 0 ? 0 : await datastore.removeAsync({ _id: { $in: ids } }, { multi: true }),
        };
      }),
    createIndex: (index: IndexSpec) => exclusive(() => ensureEmbeddedIndex(datastore, index, indexNames)),
  };
  return { collection, idle: () => queue.then(() => undefined) };
}

/**
 * Our matcher runs as NeDB's `$where`. Top-level string, number and boolean equalities are also
 * handed to NeDB, whose semantics agree for them, so that it can narrow candidates with an index.
 */
function toNedbQuery(filter: Filter): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (!key.startsWith('$') && ['string', 'number', 'boolean'].includes(typeof value)) query[key] = value;
  }
  query.$where = function (this: Row): boolean {
    return matchesFilter(this, filter);
  };
  return query;
}
