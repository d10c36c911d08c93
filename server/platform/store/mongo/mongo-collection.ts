import { MongoBulkWriteError, type Collection as DriverCollection, type Document } from 'mongodb';
import type { Log } from '../../log';
import type { Collection, Filter, FindOptions, IndexSpec, Sort, StoredDocument, Update } from '../database';
import { escapeKeys, escapeUpdateValues, unescapeKeysInPlace } from '../escape-keys';
import type { MongoConnection } from './mongo-connection';
import { assertIndexSpec, toMongoFilter, toMongoUpdate } from './prepare-mongo-query';
import { isDuplicateKey, toStoreError } from './to-store-error';

/** FerretDB 1.x answers TTL index options with NotImplemented (238) or CommandNotSupported (115). */
const NOT_IMPLEMENTED_CODES = new Set([115, 238]);

/**
 * One collection through the driver. Every call resolves the connection first, so an operation
 * made during an outage fails with StoreUnavailableError and the next one after it works again.
 */
export function createMongoCollection<T extends StoredDocument>(
  name: string,
  connection: MongoConnection,
  log: Log,
): Collection<T> {
  let writes: Promise<unknown> = Promise.resolve();

  async function run<R>(operation: (collection: DriverCollection<Document>) => Promise<R>): Promise<R> {
    try {
      const { db } = await connection.session();
      return await operation(db.collection(name));
    } catch (error) {
      throw toStoreError(error, name, connection.where);
    }
  }

  /** A write; one at a time per collection where the server does not isolate them (FerretDB 1.x). */
  async function write<R>(operation: (collection: DriverCollection<Document>) => Promise<R>): Promise<R> {
    try {
      const { db, serialiseWrites } = await connection.session();
      if (!serialiseWrites) return await operation(db.collection(name));
      const queued = writes.then(() => operation(db.collection(name)));
      writes = queued.catch(() => undefined);
      return await queued;
    } catch (error) {
      throw toStoreError(error, name, connection.where);
    }
  }
  // The driver types documents loosely; the port's callers own the shape of what they stored.
  const asDocument = (found: Document | null): T | undefined => {
    if (found === null) return undefined;
    unescapeKeysInPlace(found);
    return found as T;
  };
  const sortOf = (sort: Sort | undefined) => (sort === undefined ? {} : { sort });

  return {
    name,
    insertOne: (document) =>
      write(async (c) => {
        // Copied (escapeKeys copies): the driver writes a generated _id back into objects that lack one.
        await c.insertOne(escapeKeys(document) as Document);
      }),
    insertManyIfAbsent: (documents) =>
      write(async (c) => {
        if (documents.length === 0) return { inserted: 0 };
        try {
          // Unordered: the server goes on past a taken key, and reports every refusal at the end.
          const result = await c.insertMany(
            documents.map((document) => escapeKeys(document) as Document),
            { ordered: false },
          );
          return { inserted: result.insertedCount };
        } catch (error) {
          if (!(error instanceof MongoBulkWriteError) || error.err !== undefined) throw error;
          const refused = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
          if (!refused.every((each) => isDuplicateKey(each.code, each.errmsg))) throw error;
          return { inserted: error.insertedCount };
        }
      }),
    findOne: (filter, options) =>
      run(async (c) => asDocument(await c.findOne(toMongoFilter(filter), sortOf(options?.sort)))),
    find: (filter: Filter, options: FindOptions = {}) =>
      run(async (c) => {
        const found = await c.find(toMongoFilter(filter), {
          ...sortOf(options.sort),
          ...(options.skip === undefined ? {} : { skip: options.skip }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        });
        const rows = await found.toArray();
        for (const row of rows) unescapeKeysInPlace(row);
        return rows as unknown as T[];
      }),
    countDocuments: (filter) => run((c) => c.countDocuments(toMongoFilter(filter))),
    updateOne: (filter: Filter, update: Update, options) =>
      write(async (c) => {
        const upsert = options?.upsert === true;
        const result = await c.updateOne(
          toMongoFilter(filter),
          toMongoUpdate(filter, escapeUpdateValues(update), upsert),
          {
            upsert,
          },
        );
        return { matched: result.matchedCount, upserted: result.upsertedCount > 0 };
      }),
    updateMany: (filter, update) =>
      write(async (c) => ({
        matched: (
          await c.updateMany(toMongoFilter(filter), toMongoUpdate(filter, escapeUpdateValues(update), false))
        ).matchedCount,
      })),
    findOneAndUpdate: (filter, update, options) =>
      write(async (c) => {
        const upsert = options?.upsert === true;
        const found = await c.findOneAndUpdate(
          toMongoFilter(filter),
          toMongoUpdate(filter, escapeUpdateValues(update), upsert),
          {
            ...sortOf(options?.sort),
            upsert,
            returnDocument: 'after',
          },
        );
        return asDocument(found);
      }),
    replaceOne: (filter, document, options) =>
      write(async (c) => {
        const result = await c.replaceOne(toMongoFilter(filter), escapeKeys(document) as Document, {
          upsert: options?.upsert === true,
        });
        return { matched: result.matchedCount };
      }),
    deleteOne: (filter) =>
      write(async (c) => ({ deleted: (await c.deleteOne(toMongoFilter(filter))).deletedCount })),
    deleteMany: (filter) =>
      write(async (c) => ({ deleted: (await c.deleteMany(toMongoFilter(filter))).deletedCount })),
    createIndex: (index: IndexSpec) =>
      write(async (c) => {
        assertIndexSpec(index);
        const options = { name: index.name, ...(index.unique === true ? { unique: true } : {}) };
        if (index.expireAfterSeconds === undefined) {
          await c.createIndex(index.keys, options);
          return;
        }
        try {
          await c.createIndex(index.keys, { ...options, expireAfterSeconds: index.expireAfterSeconds });
        } catch (error) {
          // TTL is a bonus (architecture, Storage): expiry never relies on it alone, so a server
          // without TTL indexes still gets the ordinary index and a warning.
          const code = (error as { code?: unknown }).code;
          if (typeof code !== 'number' || !NOT_IMPLEMENTED_CODES.has(code)) throw error;
          log.warn('MongoDB server has no TTL indexes; creating an ordinary index instead', {
            collection: name,
            index: index.name,
          });
          await c.createIndex(index.keys, options);
        }
      }),
  };
}
