import path from 'node:path';
import type { Log } from '../log';
import type { Database } from './database';
import { createEmbeddedDatabase } from './embedded/create-embedded-database';
import { directoryLockHolder } from './embedded/directory-lock';

/** Where the embedded store keeps its files: a folder of DATA_DIR. */
const embeddedDir = (dataDir: string) => path.join(dataDir, 'db');

/** MongoDB when `MONGODB_URL` is set; otherwise the single-process embedded store in `DATA_DIR/db`. */
export async function openDatabase(options: {
  mongodbUrl?: string | undefined;
  dataDir: string;
  log: Log;
}): Promise<Database> {
  const { mongodbUrl, dataDir, log } = options;
  if (mongodbUrl) {
    // Loaded only for MongoDB: the driver takes a tenth of a second to load, and a start checks the
    // embedded store's lock (embeddedStoreHolder) before it launches its browsers.
    const { createMongoDatabase } = await import('./mongo/create-mongo-database');
    return createMongoDatabase({ url: mongodbUrl, log });
  }
  return createEmbeddedDatabase({ dir: embeddedDir(dataDir), log });
}

/**
 * The other live process that holds the embedded store of `dataDir` (a running Tabhive, or
 * `npm run keys`), if any; undefined with MongoDB, which many processes share.
 */
export function embeddedStoreHolder(options: {
  mongodbUrl?: string | undefined;
  dataDir: string;
}): Promise<number | undefined> {
  if (options.mongodbUrl) return Promise.resolve(undefined);
  return directoryLockHolder(embeddedDir(options.dataDir));
}
