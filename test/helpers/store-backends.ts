import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { ferretDbForTests, startFerretDb, type FerretDb } from './ferretdb';

/**
 * The two stores a whole Tabhive can run on, for end-to-end suites that must hold on both: the
 * embedded store (the default) and MongoDB (a real FerretDB). `start` returns the environment to
 * give the server; `countDocuments` looks at the data from outside the server, as an operator would.
 */
export interface StoreBackend {
  name: 'embedded' | 'mongodb';
  start(): Promise<Record<string, string>>;
  stop(): Promise<void>;
  countDocuments(collection: string, dataDir: string): Promise<number>;
  /** MongoDB only: stops the database server (an outage) and starts it again on the same port and data. */
  outage?: { begin(): Promise<void>; end(): Promise<void> };
}

/** Rows of an embedded collection file (one JSON document per line, later lines win). */
async function countEmbedded(collection: string, dataDir: string): Promise<number> {
  const text = await readFile(path.join(dataDir, 'db', `${collection}.db`), 'utf8').catch(() => '');
  const live = new Map<string, boolean>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { _id?: string; $$deleted?: boolean; $$indexCreated?: unknown };
    if (row._id !== undefined) live.set(row._id, row.$$deleted !== true);
  }
  return [...live.values()].filter(Boolean).length;
}

export function storeBackends(): StoreBackend[] {
  const embedded: StoreBackend = {
    name: 'embedded',
    start: async () => ({}),
    stop: async () => undefined,
    countDocuments: countEmbedded,
  };
  const binary = ferretDbForTests();
  if (binary === undefined) return [embedded];

  let ferret: FerretDb | undefined;
  const url = () => {
    if (ferret === undefined) throw new Error('FerretDB is not running');
    return ferret.url('tabhive_e2e');
  };
  const mongodb: StoreBackend = {
    name: 'mongodb',
    async start() {
      ferret = await startFerretDb(binary);
      return { MONGODB_URL: url() };
    },
    async stop() {
      await ferret?.dispose();
      ferret = undefined;
    },
    outage: {
      begin: async () => ferret?.stop(),
      end: async () => ferret?.start(),
    },
    async countDocuments(collection) {
      const client = await MongoClient.connect(url(), { serverSelectionTimeoutMS: 5_000 });
      try {
        return await client.db().collection(collection).countDocuments();
      } finally {
        await client.close();
      }
    },
  };
  return [embedded, mongodb];
}
