import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLog } from '../../../server/log';
import type { StoredDocument } from '../../../server/store/database';
import { createEmbeddedDatabase } from '../../../server/store/embedded/create-embedded-database';

interface Entry extends StoredDocument {
  createdAt?: Date;
  n?: number;
}

/** What the embedded store does beyond the shared contract: files, compaction, timers, TTL. */
describe('embedded database', () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'tabhive-embedded-'));
    dir = path.join(root, 'data', 'db');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('creates its directory and keeps one file per collection', async () => {
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    await database.collection<Entry>('cacheEntries').insertOne({ _id: 'a' });
    await database.collection<Entry>('jobs').insertOne({ _id: 'b' });
    await database.close();
    expect((await readdir(dir)).sort()).toEqual(['cacheEntries.db', 'jobs.db']);
  });

  it('compacts on close: the file holds the current documents, not their history', async () => {
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    const entries = database.collection<Entry>('entries');
    await entries.insertOne({ _id: 'a', n: 0 });
    for (let i = 1; i <= 50; i += 1) await entries.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
    await database.close();
    const lines = (await readFile(path.join(dir, 'entries.db'), 'utf8')).trim().split('\n');
    expect(lines).toEqual([JSON.stringify({ _id: 'a', n: 50 })]);
  });

  it('stops its compaction timers on close', async () => {
    // NeDB's autocompaction is a plain setInterval; a forgotten one would keep the process alive.
    const started = vi.spyOn(globalThis, 'setInterval');
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    try {
      const database = await createEmbeddedDatabase({ dir, log: silentLog });
      for (const name of ['one', 'two', 'three']) await database.collection<Entry>(name).countDocuments({});
      const timers = started.mock.results.map((result) => result.value as unknown);
      expect(timers).toHaveLength(3);
      await database.close();
      const stopped = cleared.mock.calls.map(([timer]) => timer as unknown);
      for (const timer of timers) expect(stopped).toContain(timer);
    } finally {
      started.mockRestore();
      cleared.mockRestore();
    }
  });

  it('expires documents through a TTL index, also after a restart', async () => {
    const ttl = { name: 'entries_ttl', keys: { createdAt: 1 } as const, expireAfterSeconds: 60 };
    const old = new Date(Date.now() - 120_000);
    let database = await createEmbeddedDatabase({ dir, log: silentLog });
    let entries = database.collection<Entry>('entries');
    await entries.createIndex(ttl);
    await entries.insertOne({ _id: 'old', createdAt: old });
    await entries.insertOne({ _id: 'new', createdAt: new Date() });
    await entries.insertOne({ _id: 'undated' });
    expect((await entries.find({}, { sort: { _id: 1 } })).map((entry) => entry._id)).toEqual([
      'new',
      'undated',
    ]);
    await database.close();

    // NeDB forgets a TTL when it reloads its file; the stores declare their indexes on every start.
    database = await createEmbeddedDatabase({ dir, log: silentLog });
    entries = database.collection<Entry>('entries');
    await entries.createIndex(ttl);
    await entries.insertOne({ _id: 'old-again', createdAt: old });
    expect(await entries.countDocuments({})).toBe(2);
    await database.close();
  });

  it('refuses to change the options of an existing index', async () => {
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    const entries = database.collection<Entry>('entries');
    await entries.createIndex({ name: 'entries_n', keys: { n: 1 } });
    await expect(entries.createIndex({ name: 'entries_n', keys: { n: 1 }, unique: true })).rejects.toThrow(
      /different options/,
    );
    await database.close();
  });
});
