import { beforeEach, describe, expect, it } from 'vitest';
import {
  DuplicateKeyError,
  StoreUnavailableError,
  type Collection,
  type Database,
  type StoredDocument,
} from '../../../server/platform/store/database';
import { DATABASE_BACKENDS } from '../../helpers/database-backends';

interface Task extends StoredDocument {
  state?: string;
  priority?: number;
  owner?: string;
  attempts?: number;
  log?: string[];
  meta?: { source?: string; seenAt?: Date };
  key?: string;
  createdAt?: Date;
  teamId?: string;
  urlKey?: string;
}

describe.each(DATABASE_BACKENDS)('$kind database: writes', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let database: Database;
    let tasks: Collection<Task>;

    beforeEach(async () => {
      database = await harness.fresh();
      tasks = database.collection<Task>('tasks');
    });

    it('stores field names with dots, a leading $ or %, as page metadata and JSON Schemas have them', async () => {
      const odd = {
        'msvalidate.01': 'a',
        $schema: 'b',
        '100%': 'c',
        'a%2Eb': 'd',
        nested: [{ 'x.y': { $ref: '#' } }],
      };
      await tasks.insertOne({ _id: 'odd', meta: odd } as Task);
      expect(await tasks.findOne({ _id: 'odd' })).toEqual({ _id: 'odd', meta: odd });
      await tasks.replaceOne({ _id: 'odd' }, { _id: 'odd', meta: { ...odd, 'b.c': 'e' } } as Task);
      const updated = await tasks.findOneAndUpdate({ _id: 'odd' }, { $set: { state: 'done' } });
      expect(updated).toEqual({ _id: 'odd', state: 'done', meta: { ...odd, 'b.c': 'e' } });
      expect(Object.keys((await tasks.findOne({ _id: 'odd' }))?.meta ?? {})).toEqual([
        ...Object.keys(odd),
        'b.c',
      ]);
    });

    it('keeps string ids as given and refuses a second document with the same _id', async () => {
      await tasks.insertOne({ _id: 'task-1', state: 'queued' });
      await expect(tasks.insertOne({ _id: 'task-1', state: 'other' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await tasks.find({})).toEqual([{ _id: 'task-1', state: 'queued' }]);
    });

    it('updateOne applies $set (dotted too), $unset, $inc and $push', async () => {
      await tasks.insertOne({ _id: 't', state: 'queued', attempts: 1, log: ['a'], owner: 'x' });
      const result = await tasks.updateOne(
        { _id: 't' },
        {
          $set: { state: 'leased', 'meta.source': 'sitemap' },
          $unset: { owner: true },
          $inc: { attempts: 2, priority: 5 },
          $push: { log: 'b' },
        },
      );
      expect(result).toEqual({ matched: 1, upserted: false });
      await tasks.updateOne({ _id: 't' }, { $push: { log: { $each: ['c', 'd'] } } });
      expect(await tasks.findOne({ _id: 't' })).toEqual({
        _id: 't',
        state: 'leased',
        attempts: 3,
        priority: 5,
        log: ['a', 'b', 'c', 'd'],
        meta: { source: 'sitemap' },
      });
    });

    it('updateOne touches one document, updateMany all, and both report how many matched', async () => {
      for (const id of ['1', '2', '3']) await tasks.insertOne({ _id: id, state: 'queued' });
      expect(await tasks.updateOne({ state: 'queued' }, { $set: { state: 'leased' } })).toEqual({
        matched: 1,
        upserted: false,
      });
      expect(await tasks.updateMany({ state: 'queued' }, { $set: { state: 'done' } })).toEqual({
        matched: 2,
      });
      expect(await tasks.updateOne({ state: 'missing' }, { $set: { state: 'x' } })).toEqual({
        matched: 0,
        upserted: false,
      });
      expect(await tasks.countDocuments({ state: 'done' })).toBe(2);
    });

    it('upserts insert the filter equalities and $setOnInsert, only the first time', async () => {
      const filter = { teamId: 'team', 'meta.source': 'api', priority: { $eq: 3 } };
      const update = {
        $set: { state: 'seen' },
        $setOnInsert: { createdAt: new Date('2025-01-01T00:00:00Z') },
        $inc: { attempts: 1 },
      };
      expect(await tasks.updateOne(filter, update, { upsert: true })).toEqual({ matched: 0, upserted: true });
      expect(
        await tasks.updateOne(
          filter,
          { ...update, $setOnInsert: { createdAt: new Date() } },
          { upsert: true },
        ),
      ).toEqual({ matched: 1, upserted: false });
      const [stored, ...others] = await tasks.find({});
      expect(others).toEqual([]);
      expect(stored).toMatchObject({
        teamId: 'team',
        meta: { source: 'api' },
        priority: 3,
        state: 'seen',
        attempts: 2,
      });
      expect(stored?.createdAt).toEqual(new Date('2025-01-01T00:00:00Z'));
      // Without an _id in the filter the backend generates a string id, never an ObjectId.
      expect(typeof stored?._id).toBe('string');
    });

    it('findOneAndUpdate returns the document after the update, first in sort order', async () => {
      await tasks.insertOne({ _id: 'low', state: 'queued', priority: 5 });
      await tasks.insertOne({ _id: 'high', state: 'queued', priority: 1 });
      const claimed = await tasks.findOneAndUpdate(
        { state: 'queued' },
        { $set: { state: 'leased', owner: 'w1' }, $inc: { attempts: 1 } },
        { sort: { priority: 1 } },
      );
      expect(claimed).toEqual({ _id: 'high', state: 'leased', priority: 1, owner: 'w1', attempts: 1 });
      expect(await tasks.findOneAndUpdate({ state: 'nothing' }, { $set: { state: 'x' } })).toBeUndefined();
      const upserted = await tasks.findOneAndUpdate(
        { _id: 'new' },
        { $set: { state: 'queued' }, $setOnInsert: { priority: 9 } },
        { upsert: true },
      );
      expect(upserted).toEqual({ _id: 'new', state: 'queued', priority: 9 });
    });

    it('lets concurrent claimers take each task exactly once', async () => {
      const TASKS = 20;
      const CLAIMERS = 50;
      for (let i = 0; i < TASKS; i += 1)
        await tasks.insertOne({ _id: `t${i}`, state: 'queued', priority: i % 3, attempts: 0 });
      const claimer = async (owner: string) => {
        const mine: string[] = [];
        for (;;) {
          const task = await tasks.findOneAndUpdate(
            { state: 'queued' },
            { $set: { state: 'leased', owner }, $inc: { attempts: 1 } },
            { sort: { priority: 1, _id: 1 } },
          );
          if (!task) return mine;
          expect(task.owner).toBe(owner);
          mine.push(task._id);
        }
      };
      const claims = (await Promise.all(Array.from({ length: CLAIMERS }, (_, i) => claimer(`w${i}`)))).flat();
      expect(claims.sort()).toEqual(Array.from({ length: TASKS }, (_, i) => `t${i}`).sort());
      expect(await tasks.countDocuments({ attempts: 1, state: 'leased' })).toBe(TASKS);
    });

    it('replaceOne swaps the whole document; with upsert it inserts', async () => {
      await tasks.insertOne({ _id: 'r', state: 'queued', owner: 'x' });
      expect(await tasks.replaceOne({ _id: 'r' }, { _id: 'r', state: 'done' })).toEqual({ matched: 1 });
      expect(await tasks.findOne({ _id: 'r' })).toEqual({ _id: 'r', state: 'done' });
      expect(await tasks.replaceOne({ _id: 's' }, { _id: 's', state: 'new' })).toEqual({ matched: 0 });
      expect(await tasks.findOne({ _id: 's' })).toBeUndefined();
      expect(await tasks.replaceOne({ _id: 's' }, { _id: 's', state: 'new' }, { upsert: true })).toEqual({
        matched: 0,
      });
      expect(await tasks.findOne({ _id: 's' })).toEqual({ _id: 's', state: 'new' });
    });

    it('deleteOne removes one match, deleteMany all of them', async () => {
      for (const id of ['1', '2', '3', '4'])
        await tasks.insertOne({ _id: id, state: id === '4' ? 'done' : 'queued' });
      expect(await tasks.deleteOne({ state: 'queued' })).toEqual({ deleted: 1 });
      expect(await tasks.deleteMany({ state: 'queued' })).toEqual({ deleted: 2 });
      expect(await tasks.deleteMany({ state: 'queued' })).toEqual({ deleted: 0 });
      expect((await tasks.find({})).map((task) => task._id)).toEqual(['4']);
    });

    it('refuses an update whose operators overlap', async () => {
      await tasks.insertOne({ _id: 'c', attempts: 1 });
      await expect(
        tasks.updateOne({ _id: 'c' }, { $set: { attempts: 5 }, $inc: { attempts: 1 } }),
      ).rejects.toThrow();
      expect(await tasks.findOne({ _id: 'c' })).toEqual({ _id: 'c', attempts: 1 });
    });

    it('enforces unique indexes on every kind of write, and creating one twice is a no-op', async () => {
      const index = { name: 'tasks_team_url', keys: { teamId: 1, urlKey: 1 } as const, unique: true };
      await tasks.createIndex(index);
      await tasks.createIndex(index);
      await tasks.insertOne({ _id: '1', teamId: 'a', urlKey: 'x' });
      await tasks.insertOne({ _id: '2', teamId: 'b', urlKey: 'x' });
      await expect(tasks.insertOne({ _id: '3', teamId: 'a', urlKey: 'x' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(tasks.updateOne({ _id: '2' }, { $set: { teamId: 'a' } })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(
        tasks.findOneAndUpdate({ _id: '4' }, { $set: { teamId: 'b', urlKey: 'x' } }, { upsert: true }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(
        tasks.replaceOne({ _id: '2' }, { _id: '2', teamId: 'a', urlKey: 'x' }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await tasks.countDocuments({})).toBe(2);
      await expect(tasks.createIndex({ name: 'tasks_team_url', keys: { state: 1 } })).rejects.toThrow();
    });

    it('inserts many documents in one call, skipping keys taken in the store or earlier in the call', async () => {
      await tasks.createIndex({ name: 'tasks_team_url', keys: { teamId: 1, urlKey: 1 }, unique: true });
      await tasks.insertOne({ _id: 'old', teamId: 'a', urlKey: 'taken' });
      expect(await tasks.insertManyIfAbsent([])).toEqual({ inserted: 0 });
      const result = await tasks.insertManyIfAbsent([
        { _id: 'n1', teamId: 'a', urlKey: 'x', meta: { 'with.dot': 'kept' } as Task['meta'] },
        { _id: 'n2', teamId: 'a', urlKey: 'taken' },
        { _id: 'old', teamId: 'b', urlKey: 'y' },
        { _id: 'n3', teamId: 'a', urlKey: 'x' },
        { _id: 'n4', teamId: 'b', urlKey: 'x' },
        { _id: 'n4', teamId: 'c', urlKey: 'z' },
        { _id: 'n5', teamId: 'c', urlKey: 'x', createdAt: new Date('2026-01-02T03:04:05.006Z') },
      ]);
      expect(result).toEqual({ inserted: 3 });
      expect(await tasks.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'n1', teamId: 'a', urlKey: 'x', meta: { 'with.dot': 'kept' } },
        { _id: 'n4', teamId: 'b', urlKey: 'x' },
        { _id: 'n5', teamId: 'c', urlKey: 'x', createdAt: new Date('2026-01-02T03:04:05.006Z') },
        { _id: 'old', teamId: 'a', urlKey: 'taken' },
      ]);
      // Again with the same documents: nothing new, nothing refused.
      expect(await tasks.insertManyIfAbsent([{ _id: 'n1', teamId: 'a', urlKey: 'x' }])).toEqual({
        inserted: 0,
      });
      const many = Array.from({ length: 2_500 }, (_, i) => ({ _id: `m${i}`, teamId: 'm', urlKey: `${i}` }));
      expect(await tasks.insertManyIfAbsent(many)).toEqual({ inserted: 2_500 });
      expect(await tasks.countDocuments({ teamId: 'm' })).toBe(2_500);
    });

    it('refuses a unique index over data that already repeats a key', async () => {
      await tasks.insertOne({ _id: '1', key: 'same' });
      await tasks.insertOne({ _id: '2', key: 'same' });
      await expect(
        tasks.createIndex({ name: 'tasks_key', keys: { key: 1 }, unique: true }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('accepts a TTL index (expiry itself is a bonus the backend may not provide)', async () => {
      await tasks.createIndex({
        name: 'tasks_created_ttl',
        keys: { createdAt: 1 },
        expireAfterSeconds: 3600,
      });
      await tasks.createIndex({
        name: 'tasks_created_ttl',
        keys: { createdAt: 1 },
        expireAfterSeconds: 3600,
      });
      await tasks.insertOne({ _id: 'fresh', createdAt: new Date() });
      expect(await tasks.countDocuments({})).toBe(1);
    });

    it('keeps documents and unique indexes across close and reopen', async () => {
      await tasks.createIndex({ name: 'tasks_key', keys: { key: 1 }, unique: true });
      await tasks.insertOne({
        _id: 'kept',
        key: 'k',
        meta: { seenAt: new Date('2026-02-03T04:05:06.007Z') },
      });
      await tasks.updateOne({ _id: 'kept' }, { $push: { log: 'updated' } });
      await database.close();
      const reopened = (await harness.reopen()).collection<Task>('tasks');
      expect(await reopened.findOne({ _id: 'kept' })).toEqual({
        _id: 'kept',
        key: 'k',
        meta: { seenAt: new Date('2026-02-03T04:05:06.007Z') },
        log: ['updated'],
      });
      await expect(reopened.insertOne({ _id: 'other', key: 'k' })).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('answers ping while open, and StoreUnavailableError once closed', async () => {
      await database.ping();
      await database.close();
      await expect(database.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(tasks.findOne({})).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(tasks.insertOne({ _id: 'late' })).rejects.toBeInstanceOf(StoreUnavailableError);
    });

    it('refuses collection names that are not plain words', () => {
      expect(() => database.collection('../escape')).toThrow(TypeError);
      expect(() => database.collection('')).toThrow(TypeError);
    });
  });
});
