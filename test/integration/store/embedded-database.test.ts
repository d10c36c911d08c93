import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import {
  DuplicateKeyError,
  StoreUnavailableError,
  type StoredDocument,
} from '../../../server/platform/store/database';
import { createEmbeddedDatabase } from '../../../server/platform/store/embedded/create-embedded-database';

interface Entry extends StoredDocument {
  createdAt?: Date;
  n?: number;
  state?: string;
  tags?: string[];
  meta?: Record<string, unknown>;
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
    // Compaction runs on a setInterval per collection; a forgotten one would fire after close.
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

    // The file records the TTL index, and the stores declare their indexes on every start anyway.
    database = await createEmbeddedDatabase({ dir, log: silentLog });
    entries = database.collection<Entry>('entries');
    await entries.createIndex(ttl);
    await entries.insertOne({ _id: 'old-again', createdAt: old });
    expect(await entries.countDocuments({})).toBe(2);
    await database.close();
  });

  it('reads files written in the NeDB line format of earlier versions: dates, escaped keys, deletions, indexes', async () => {
    await mkdir(dir, { recursive: true });
    const lines = [
      { $$indexCreated: { fieldName: 'state', unique: false, sparse: false } },
      { $$indexCreated: { fieldName: 'n', unique: true, sparse: false } },
      {
        _id: 'a',
        n: 1,
        createdAt: { $$date: 1_700_000_000_000 },
        meta: { 'DC%2Etitle': 'x', '%24schema': 's' },
      },
      { _id: 'b', n: 2, state: 'old' },
      { _id: 'b', n: 2, state: 'new' },
      { _id: 'c', n: 3 },
      { $$deleted: true, _id: 'c' },
    ];
    await writeFile(path.join(dir, 'entries.db'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    const entries = database.collection<Entry>('entries');
    expect(await entries.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', n: 1, createdAt: new Date(1_700_000_000_000), meta: { 'DC.title': 'x', $schema: 's' } },
      { _id: 'b', n: 2, state: 'new' },
    ]);
    expect(await entries.countDocuments({ state: 'old' })).toBe(0);
    // The unique index from the file holds before any store declares it again.
    await expect(entries.insertOne({ _id: 'd', n: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
    await database.close();
  });

  it('keeps every acknowledged write of a burst in the file, without waiting for a compaction', async () => {
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    const entries = database.collection<Entry>('entries');
    await entries.createIndex({ name: 'entries_n', keys: { n: 1 }, unique: true });
    await Promise.all(Array.from({ length: 200 }, (_, n) => entries.insertOne({ _id: `e${n}`, n })));
    await Promise.all(
      Array.from({ length: 100 }, (_, n) => entries.updateOne({ _id: `e${n}` }, { $set: { state: 'done' } })),
    );
    await entries.deleteMany({ n: { $gte: 150 } });
    // What a crash right now would leave: a copy of the files, opened without closing the first.
    const copy = path.join(root, 'copy');
    await cp(dir, copy, { recursive: true });
    await rm(path.join(copy, 'tabhive.lock'));
    await database.close();
    const reopened = await createEmbeddedDatabase({ dir: copy, log: silentLog });
    const again = reopened.collection<Entry>('entries');
    expect(await again.countDocuments({})).toBe(150);
    expect(await again.countDocuments({ state: 'done' })).toBe(100);
    await expect(again.insertOne({ _id: 'dup', n: 7 })).rejects.toBeInstanceOf(DuplicateKeyError);
    await reopened.close();
  });

  it('ignores a torn last line, and refuses a file with many unreadable lines', async () => {
    await mkdir(dir, { recursive: true });
    const rows = Array.from({ length: 5 }, (_, n) => JSON.stringify({ _id: `r${n}`, n }));
    await writeFile(path.join(dir, 'torn.db'), `${rows.join('\n')}\n{"_id":"r5","n`);
    await writeFile(path.join(dir, 'broken.db'), `${rows[0]}\nnot json\n{ nor this\n${rows[1]}\n`);
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    expect(await database.collection<Entry>('torn').countDocuments({})).toBe(5);
    await expect(database.collection<Entry>('broken').countDocuments({})).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    await expect(database.ping()).rejects.toThrow(/broken\.db/);
    await database.close();
    // Nothing was lost: the refused file is left as it was for someone to look at.
    expect(await readFile(path.join(dir, 'broken.db'), 'utf8')).toContain('not json');
  });

  it('recovers from a compaction interrupted before or after its rename', async () => {
    await mkdir(dir, { recursive: true });
    const line = (id: string) => `${JSON.stringify({ _id: id })}\n`;
    // Interrupted before the rename: the old file is the truth, the half-written one is dropped.
    await writeFile(path.join(dir, 'before.db'), line('kept'));
    await writeFile(path.join(dir, 'before.db~'), '{"_id":"hal');
    // Interrupted after removing the old file (an older engine did): the finished rewrite is used.
    await writeFile(path.join(dir, 'after.db~'), line('rewritten'));
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    expect(await database.collection<Entry>('before').find({})).toEqual([{ _id: 'kept' }]);
    expect(await database.collection<Entry>('after').find({})).toEqual([{ _id: 'rewritten' }]);
    await database.close();
    expect((await readdir(dir)).sort()).toEqual(['after.db', 'before.db']);
  });

  it('keeps its lookups right as indexed fields change, arrays and $in included', async () => {
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    const entries = database.collection<Entry>('entries');
    await entries.createIndex({ name: 'state', keys: { state: 1, n: 1 } });
    await entries.createIndex({ name: 'tags', keys: { tags: 1 } });
    await entries.insertOne({ _id: 'a', state: 'queued', n: 1, tags: ['x', 'y'] });
    await entries.insertOne({ _id: 'b', state: 'queued', n: 2, tags: ['y'] });
    await entries.insertOne({ _id: 'c', state: 'done', n: 3 });
    const ids = async (filter: Parameters<typeof entries.find>[0]) =>
      (await entries.find(filter, { sort: { _id: 1 } })).map((entry) => entry._id);

    const claimed = await entries.findOneAndUpdate(
      { state: 'queued' },
      { $set: { state: 'running' }, $push: { tags: 'z' } },
      { sort: { n: 1 } },
    );
    expect(claimed).toMatchObject({ _id: 'a', state: 'running', tags: ['x', 'y', 'z'] });
    expect(await ids({ state: 'queued' })).toEqual(['b']);
    expect(await ids({ state: 'running' })).toEqual(['a']);
    expect(await ids({ state: { $in: ['running', 'done'] } })).toEqual(['a', 'c']);
    expect(await ids({ state: { $eq: 'done' }, n: { $gt: 2 } })).toEqual(['c']);
    expect(await ids({ tags: 'z' })).toEqual(['a']);
    expect(await ids({ tags: 'y' })).toEqual(['a', 'b']);
    await entries.updateMany({ state: { $in: ['queued', 'running'] } }, { $unset: { state: true } });
    expect(await ids({ state: null })).toEqual(['a', 'b']);
    expect(await ids({ state: { $in: [] } })).toEqual([]);
    await entries.deleteOne({ tags: 'x' });
    expect(await ids({ tags: 'y' })).toEqual(['b']);
    await database.close();
  });

  it('finds documents stored before their unique index was declared by the indexed field', async () => {
    // The stores declare indexes in the background at start; a request may store documents first.
    const database = await createEmbeddedDatabase({ dir, log: silentLog });
    const entries = database.collection<Entry>('entries');
    await entries.insertOne({ _id: 'a', state: 'one' });
    await entries.insertOne({ _id: 'b', state: 'two' });
    await entries.createIndex({ name: 'entries_state', keys: { state: 1 }, unique: true });
    expect(await entries.findOne({ state: 'two' })).toEqual({ _id: 'b', state: 'two' });
    await expect(entries.insertOne({ _id: 'c', state: 'one' })).rejects.toBeInstanceOf(DuplicateKeyError);
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
