import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { silentLog } from '../../server/platform/log/log';
import { createStores, ensureIndexes, type Stores } from '../../server/platform/store/create-stores';
import type { Database } from '../../server/platform/store/database';
import { createEmbeddedDatabase } from '../../server/platform/store/embedded/create-embedded-database';
import { createMongoDatabase } from '../../server/platform/store/mongo/create-mongo-database';
import { ferretDbForTests, startFerretDb, type FerretDb } from './ferretdb';

/** One backend of the storage port, as the contract suites drive it. */
export interface DatabaseBackend {
  kind: Database['kind'];
  /** False when FerretDB is missing locally: the suite reports its tests as skipped. */
  available: boolean;
  /**
   * Registers the hooks that start what the backend needs and clean up after each test, and
   * returns `open`: a fresh, empty database per call of `fresh()`, and the same one again
   * (after a close) through `reopen()`.
   */
  use(): { fresh(): Promise<Database>; reopen(): Promise<Database> };
}

const ferretBinary = ferretDbForTests();

function backend(
  kind: Database['kind'],
  available: boolean,
  makeLocation: () => Promise<{ open(): Promise<Database>; cleanup(): Promise<void> }>,
  before?: () => Promise<void>,
  after?: () => Promise<void>,
): DatabaseBackend {
  return {
    kind,
    available,
    use() {
      let location: Awaited<ReturnType<typeof makeLocation>> | undefined;
      const opened: Database[] = [];
      if (before) beforeAll(before, 30_000);
      if (after) afterAll(after);
      afterEach(async () => {
        await Promise.all(opened.splice(0).map((database) => database.close().catch(() => undefined)));
        await location?.cleanup();
        location = undefined;
      });
      const open = async () => {
        if (!location) throw new Error('call fresh() first');
        const database = await location.open();
        opened.push(database);
        return database;
      };
      return {
        async fresh() {
          location = await makeLocation();
          return open();
        },
        reopen: open,
      };
    },
  };
}

let ferret: FerretDb | undefined;

export const DATABASE_BACKENDS: DatabaseBackend[] = [
  backend('embedded', true, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-embedded-'));
    return {
      open: () => createEmbeddedDatabase({ dir, log: silentLog }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  }),
  backend(
    'mongodb',
    ferretBinary !== undefined,
    async () => {
      if (!ferret) throw new Error('FerretDB is not running');
      // A database per test on one server: isolation without a process per test.
      const url = ferret.url(`contract_${randomUUID().slice(0, 8)}`);
      return { open: () => createMongoDatabase({ url, log: silentLog }), cleanup: async () => undefined };
    },
    async () => {
      ferret = await startFerretDb(ferretBinary as string);
    },
    async () => {
      await ferret?.dispose();
      ferret = undefined;
    },
  ),
];

/** The domain stores on a fresh, empty database of `harness`, their indexes made. */
export async function freshStores(harness: ReturnType<DatabaseBackend['use']>): Promise<Stores> {
  const stores = createStores(await harness.fresh());
  await ensureIndexes(stores);
  return stores;
}
