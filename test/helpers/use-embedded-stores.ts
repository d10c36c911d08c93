import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { silentLog } from '../../server/platform/log/log';
import { createStores, ensureIndexes, type Stores } from '../../server/platform/store/create-stores';
import type { Database } from '../../server/platform/store/database';
import { createEmbeddedDatabase } from '../../server/platform/store/embedded/create-embedded-database';

/**
 * Real stores on an embedded database in a temporary directory, for the test file that calls it:
 * opened before its tests, closed and removed after them. Read `.stores` inside tests and hooks.
 */
export function useEmbeddedStores(): { readonly stores: Stores; readonly database: Database } {
  let dir: string | undefined;
  let database: Database | undefined;
  let stores: Stores | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-stores-'));
    database = await createEmbeddedDatabase({ dir, log: silentLog });
    stores = createStores(database);
    await ensureIndexes(stores);
  });
  afterAll(async () => {
    await database?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return {
    get stores() {
      if (stores === undefined) throw new Error('stores are opened in beforeAll');
      return stores;
    },
    get database() {
      if (database === undefined) throw new Error('the database is opened in beforeAll');
      return database;
    },
  };
}
