import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import type { Log } from '../../log';
import { StoreUnavailableError, type Collection, type Database, type StoredDocument } from '../database';
import { lockDirectory } from './directory-lock';
import { createEmbeddedCollection, type EmbeddedCollection } from './embedded-collection';

export interface EmbeddedDatabaseOptions {
  /** Created when missing; holds one `<collection>.db` file per collection. */
  dir: string;
  log: Log;
  /** How often each collection's append-only file is rewritten (NeDB allows no less than 5 s). */
  compactionIntervalMs?: number;
}

/**
 * NeDB appends a line per write and only shrinks its file when compacting. Every 10 minutes keeps
 * a busy task queue's files to minutes of history while costing a rewrite of a small file.
 */
const DEFAULT_COMPACTION_INTERVAL_MS = 10 * 60_000;
/** Collection names become file names; the MongoDB adapter accepts exactly the same ones. */
const COLLECTION_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_-]*$/;

type Row = Record<string, unknown> & { _id: string };

/**
 * The embedded store: NeDB datastores in `dir`, persistent across restarts, for ONE process.
 * Each datastore lives in this process's memory and appends to its file; a second process on
 * the same directory would neither see these writes nor keep its own safe. Use MongoDB to run
 * more than one server instance.
 */
export async function createEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<Database> {
  const { dir, log } = options;
  const compactionIntervalMs = options.compactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
  await mkdir(dir, { recursive: true });
  const unlock = await lockDirectory(dir);
  const opened = new Map<
    string,
    { datastore: Datastore<Row>; ready: Promise<void>; handle: EmbeddedCollection<StoredDocument> }
  >();
  let closed = false;
  const assertOpen = () => {
    if (closed) throw new StoreUnavailableError('the embedded database is closed');
  };

  function open(name: string) {
    const datastore = new Datastore<Row>({ filename: path.join(dir, `${name}.db`) });
    const ready = datastore
      .loadDatabaseAsync()
      .then(() => datastore.setAutocompactionInterval(compactionIntervalMs));
    // Every operation awaits `ready` and reports the failure itself; this only logs it once.
    ready.catch((error: unknown) =>
      log.error('cannot load embedded collection', { collection: name, dir, error: String(error) }),
    );
    const entry = {
      datastore,
      ready,
      handle: createEmbeddedCollection<StoredDocument>(name, datastore, ready, assertOpen),
    };
    opened.set(name, entry);
    return entry;
  }

  return {
    kind: 'embedded',
    collection<T extends StoredDocument>(name: string): Collection<T> {
      assertOpen();
      if (!COLLECTION_NAME.test(name))
        throw new TypeError(`invalid collection name: ${JSON.stringify(name)}`);
      // Each name is opened once, for whichever document type its store declares.
      return (opened.get(name) ?? open(name)).handle.collection as unknown as Collection<T>;
    },
    async ping() {
      assertOpen();
      try {
        await access(dir, constants.W_OK);
      } catch (error) {
        throw new StoreUnavailableError(`cannot write to ${dir}: ${String(error)}`);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const [name, { datastore, ready, handle }] of opened) {
        datastore.stopAutocompaction();
        const loaded = await ready.then(
          () => true,
          () => false,
        );
        if (!loaded) continue;
        await handle.idle();
        // A last compaction leaves one line per document, flushed to disk (appends are not fsynced).
        await datastore
          .compactDatafileAsync()
          .catch((error: unknown) =>
            log.warn('compaction on close failed', { collection: name, error: String(error) }),
          );
      }
      await unlock();
    },
  };
}
