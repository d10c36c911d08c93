import path from 'node:path';
import type { Log } from '../log';
import type { Database } from './database';
import { createEmbeddedDatabase } from './embedded/create-embedded-database';
import { createMongoDatabase } from './mongo/create-mongo-database';

/** MongoDB when `MONGODB_URL` is set; otherwise the single-process embedded store in `DATA_DIR/db`. */
export function openDatabase(options: {
  mongodbUrl?: string | undefined;
  dataDir: string;
  log: Log;
}): Promise<Database> {
  const { mongodbUrl, dataDir, log } = options;
  if (mongodbUrl) return createMongoDatabase({ url: mongodbUrl, log });
  return createEmbeddedDatabase({ dir: path.join(dataDir, 'db'), log });
}
