import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import {
  StoreUnavailableError,
  type Database,
  type StoredDocument,
} from '../../../server/platform/store/database';
import { createMongoDatabase } from '../../../server/platform/store/mongo/create-mongo-database';
import { ferretDbForTests, startFerretDb, type FerretDb } from '../../helpers/ferretdb';

interface Note extends StoredDocument {
  text: string;
}

const binary = ferretDbForTests();
/** Short, so that an outage shows within a test; production uses 4 s. */
const SELECTION_TIMEOUT_MS = 1_500;
/** "Fails fast": well under an HTTP client's patience, even with the driver's one retry. */
const FAIL_FAST_MS = 8_000;

/** Retries `attempt` until it resolves (the server is coming back) or `timeoutMs` passes. */
async function eventually<R>(attempt: () => Promise<R>, timeoutMs = 20_000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function failsFast(operation: Promise<unknown>): Promise<void> {
  const started = Date.now();
  await expect(operation).rejects.toBeInstanceOf(StoreUnavailableError);
  expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
}

describe.skipIf(!binary)('MongoDB outages', () => {
  let ferret: FerretDb;
  const opened: Database[] = [];
  const open = async (database: string, extra: Partial<Parameters<typeof createMongoDatabase>[0]> = {}) => {
    const db = await createMongoDatabase({
      url: ferret.url(database),
      log: silentLog,
      serverSelectionTimeoutMs: SELECTION_TIMEOUT_MS,
      ...extra,
    });
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    ferret = await startFerretDb(binary as string);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    await ferret.start();
  });
  afterAll(() => ferret?.dispose());

  it('fails with StoreUnavailableError while the server is down, and the same Database works once it is back', async () => {
    const database = await open('outage');
    const notes = database.collection<Note>('notes');
    await notes.insertOne({ _id: 'before', text: 'written before the outage' });

    await ferret.stop();
    await failsFast(notes.findOne({ _id: 'before' }));
    await failsFast(notes.insertOne({ _id: 'during', text: 'lost' }));
    await failsFast(notes.findOneAndUpdate({ _id: 'before' }, { $set: { text: 'x' } }));
    await failsFast(database.ping());

    await ferret.start();
    expect(await eventually(() => notes.findOne({ _id: 'before' }))).toEqual({
      _id: 'before',
      text: 'written before the outage',
    });
    await notes.insertOne({ _id: 'after', text: 'written after the outage' });
    await database.ping();
    expect(await notes.countDocuments({})).toBe(2);
  });

  it('starts while the server is down and works once it comes up', async () => {
    await ferret.stop();
    const database = await open('late');
    const notes = database.collection<Note>('notes');
    await failsFast(database.ping());
    await failsFast(notes.insertOne({ _id: 'early', text: 'too early' }));

    await ferret.start();
    await eventually(() => database.ping());
    await notes.insertOne({ _id: 'late', text: 'once it is up' });
    expect(await notes.find({})).toEqual([{ _id: 'late', text: 'once it is up' }]);
  });

  it('sends every write with a majority write concern (docs/running-at-scale.md#leases-and-durable-writes)', async () => {
    const writes: { name: string; writeConcern: unknown }[] = [];
    const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify', 'createIndexes']);
    const database = await open('majority', {
      onCommandStarted: (name, command) => {
        if (WRITE_COMMANDS.has(name)) writes.push({ name, writeConcern: command.writeConcern });
      },
    });
    const notes = database.collection<Note>('notes');
    await notes.createIndex({ name: 'notes_text', keys: { text: 1 } });
    await notes.insertOne({ _id: 'a', text: 'a' });
    await notes.updateOne({ _id: 'a' }, { $set: { text: 'b' } });
    await notes.updateOne({ _id: 'u' }, { $set: { text: 'u' } }, { upsert: true });
    await notes.updateMany({}, { $set: { text: 'c' } });
    await notes.findOneAndUpdate({ _id: 'a' }, { $set: { text: 'd' } });
    await notes.replaceOne({ _id: 'a' }, { _id: 'a', text: 'e' });
    await notes.deleteOne({ _id: 'a' });
    await notes.deleteMany({});
    expect(new Set(writes.map((write) => write.name))).toEqual(WRITE_COMMANDS);
    for (const write of writes) expect(write).toEqual({ name: write.name, writeConcern: { w: 'majority' } });
  });

  it('refuses a malformed URL at once instead of treating it as an outage', async () => {
    await expect(
      createMongoDatabase({ url: 'mongodb://127.0.0.1:1/db?unknownOption=1&w=nonsense%', log: silentLog }),
    ).rejects.toThrow();
    await expect(createMongoDatabase({ url: 'http://not-mongo', log: silentLog })).rejects.not.toBeInstanceOf(
      StoreUnavailableError,
    );
  });
});
