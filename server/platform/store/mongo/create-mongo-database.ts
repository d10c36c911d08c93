import type { Log } from '../../log';
import { StoreUnavailableError, type Collection, type Database, type StoredDocument } from '../database';
import { createMongoCollection } from './mongo-collection';
import { createMongoConnection } from './mongo-connection';
import { toStoreError } from './to-store-error';

export interface MongoDatabaseOptions {
  /** `mongodb://` or `mongodb+srv://`; the path names the database (`tabhive` when empty). */
  url: string;
  log: Log;
  /**
   * How long an operation waits for a reachable server before failing with
   * StoreUnavailableError. Short, so that an API request during an outage gets a clear 503
   * instead of hanging for the driver's default 30 s.
   */
  serverSelectionTimeoutMs?: number;
  /** Sees every command the driver sends; tests use it to check write concerns (docs/running-at-scale.md#leases-and-durable-writes). */
  onCommandStarted?: (commandName: string, command: Readonly<Record<string, unknown>>) => void;
}

export const DEFAULT_DATABASE_NAME = 'tabhive';
const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 4_000;
/** Collection names become file names in the embedded store; both backends accept the same ones. */
const COLLECTION_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_-]*$/;

/**
 * MongoDB (6+, or a compatible server such as FerretDB 1.24) through the official driver.
 *
 * Startup tolerates a server that is down: the first connection attempt is made here and a
 * failure is only logged, so Tabhive comes up and answers 503 for storage-backed requests; each
 * later operation tries again until the server answers. Outages after that are the driver's to
 * recover from; operations made meanwhile fail fast with StoreUnavailableError.
 */
export async function createMongoDatabase(options: MongoDatabaseOptions): Promise<Database> {
  const { url, log } = options;
  const connection = createMongoConnection({
    url,
    databaseName: databaseNameOf(url),
    log,
    serverSelectionTimeoutMs: options.serverSelectionTimeoutMs ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS,
    ...(options.onCommandStarted ? { onCommandStarted: options.onCommandStarted } : {}),
  });
  const collections = new Map<string, Collection<StoredDocument>>();

  const database: Database = {
    kind: 'mongodb',
    collection<T extends StoredDocument>(name: string): Collection<T> {
      if (!COLLECTION_NAME.test(name))
        throw new TypeError(`invalid collection name: ${JSON.stringify(name)}`);
      let collection = collections.get(name);
      if (!collection) {
        collection = createMongoCollection<StoredDocument>(name, connection, log);
        collections.set(name, collection);
      }
      // Each name is created once, for whichever document type its store declares.
      return collection as unknown as Collection<T>;
    },
    async ping() {
      try {
        await (await connection.session()).db.command({ ping: 1 });
      } catch (error) {
        throw toStoreError(error, '(ping)', connection.where);
      }
    },
    isolatesUpdates: async () => !(await connection.session()).serialiseWrites,
    close: () => connection.close(),
  };

  try {
    await database.ping();
    log.info('connected to MongoDB', { where: connection.where });
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) {
      await connection.close();
      throw error;
    }
    log.warn('MongoDB is not reachable yet; starting anyway and retrying on each request', {
      where: connection.where,
      error: error.message,
    });
  }
  return database;
}

/** The URL's path (`mongodb://host/name?options`); the driver's own default would be `test`. */
export function databaseNameOf(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name === '' ? DEFAULT_DATABASE_NAME : name;
}
