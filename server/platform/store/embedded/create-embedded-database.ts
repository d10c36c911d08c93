import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Log } from '../../log';
import { StoreUnavailableError, type Collection, type Database, type StoredDocument } from '../database';
import { openCollectionFile, readCollectionFile } from './collection-file';
import { lockDirectory } from './directory-lock';
import { createEmbeddedCollection, type EmbeddedCollection } from './embedded-collection';
import { decodeLine, type LogLine } from './log-line';

export interface EmbeddedDatabaseOptions {
  /** Created when missing; holds one `<collection>.db` file per collection. */
  dir: string;
  log: Log;
  /** How often each collection's append-only file is rewritten without its history. */
  compactionIntervalMs?: number;
}

/**
 * A collection file grows by a line per write and only shrinks when compacted. Every 10 minutes keeps
 * a busy task queue's files to minutes of history while costing a rewrite of a small file.
 */
const DEFAULT_COMPACTION_INTERVAL_MS = 10 * 60_000;
/** Collection names become file names; the MongoDB adapter accepts exactly the same ones. */
const COLLECTION_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_-]*$/;
/** More unreadable lines than this share (a torn last line aside) means the wrong file or real damage: refuse it. */
const CORRUPT_SHARE_REFUSED = 0.1;

/**
 * The embedded store: one file per collection in `dir`, persistent across restarts, for ONE
 * process. Each collection lives in this process's memory and appends its changes to its file
 * (embedded-collection.ts); a second process on the same directory would neither see these
 * writes nor keep its own safe. Use MongoDB to run more than one server instance.
 */
export async function createEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<Database> {
  const { dir, log } = options;
  const compactionIntervalMs = options.compactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
  await mkdir(dir, { recursive: true });
  const unlock = await lockDirectory(dir);
  const opened = new Map<
    string,
    {
      loading: Promise<EmbeddedCollection<StoredDocument>>;
      collection: Collection<StoredDocument>;
      timer: NodeJS.Timeout;
    }
  >();
  const failed = new Set<string>();
  let closed = false;
  const assertOpen = () => {
    if (closed) throw new StoreUnavailableError('the embedded database is closed');
  };

  function open(name: string) {
    const file = path.join(dir, `${name}.db`);
    const loading = (async () => {
      const lines = decodeAll(name, await readCollectionFile(file), log);
      const handle = createEmbeddedCollection<StoredDocument>(
        name,
        lines,
        openCollectionFile(file),
        assertOpen,
      );
      // Loading replays the history; writing the result back keeps the next start short. A file
      // without history (a new collection, or one compacted on close) is left as it is.
      if (handle.loadedHistory) await handle.compact();
      return handle;
    })();
    loading.catch((error: unknown) => {
      failed.add(name);
      log.error('cannot load embedded collection', { collection: name, dir, error: String(error) });
    });
    const timer = setInterval(() => {
      // A collection that failed to load or compact is reported by ping; retrying only repeats the log.
      if (failed.has(name)) return;
      loading
        .then((handle) => handle.compact())
        .catch((error: unknown) => {
          failed.add(name);
          log.error('embedded collection compaction failed', { collection: name, error: String(error) });
        });
    }, compactionIntervalMs);
    timer.unref();
    const entry = { loading, collection: whenLoaded(name, loading), timer };
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
      return (opened.get(name) ?? open(name)).collection as unknown as Collection<T>;
    },
    // One process, whose writes to a collection apply one at a time.
    isolatesUpdates: async () => true,
    async ping() {
      assertOpen();
      if (failed.size > 0)
        throw new StoreUnavailableError(
          `cannot read or write ${[...failed].map((name) => `${name}.db`).join(', ')} in ${dir}`,
        );
      try {
        await access(dir, constants.W_OK);
      } catch (error) {
        throw new StoreUnavailableError(`cannot write to ${dir}: ${String(error)}`);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const [name, { loading, timer }] of opened) {
        clearInterval(timer);
        const handle = await loading.catch(() => undefined);
        if (handle === undefined) continue;
        // A last compaction leaves one line per document, flushed to disk (appends are not fsynced).
        await handle
          .compact()
          .catch((error: unknown) =>
            log.warn('compaction on close failed', { collection: name, error: String(error) }),
          );
        await handle.close();
      }
      await unlock();
    },
  };
}

/** A collection usable at once: calls made while its file loads run when it has loaded. */
function whenLoaded<T extends StoredDocument>(
  name: string,
  loading: Promise<EmbeddedCollection<T>>,
): Collection<T> {
  let loaded: Collection<T> | undefined;
  void loading.then(
    (handle) => (loaded = handle.collection),
    () => undefined,
  );
  const call =
    <K extends Exclude<keyof Collection<T>, 'name'>>(method: K) =>
    (...args: Parameters<Collection<T>[K]>): ReturnType<Collection<T>[K]> => {
      // Each method's own signature; TypeScript cannot follow K through the indexed call.
      const invoke = (collection: Collection<T>) =>
        (collection[method] as (...params: Parameters<Collection<T>[K]>) => ReturnType<Collection<T>[K]>)(
          ...args,
        );
      if (loaded !== undefined) return invoke(loaded);
      const later: Promise<unknown> = loading.then(
        (handle): unknown => invoke(handle.collection),
        (error: unknown) => {
          throw new StoreUnavailableError(`the ${name} collection did not load: ${String(error)}`);
        },
      );
      return later as ReturnType<Collection<T>[K]>;
    };
  return {
    name,
    insertOne: call('insertOne'),
    insertManyIfAbsent: call('insertManyIfAbsent'),
    findOne: call('findOne'),
    find: call('find'),
    countDocuments: call('countDocuments'),
    updateOne: call('updateOne'),
    updateMany: call('updateMany'),
    findOneAndUpdate: call('findOneAndUpdate'),
    replaceOne: call('replaceOne'),
    deleteOne: call('deleteOne'),
    deleteMany: call('deleteMany'),
    createIndex: call('createIndex'),
  };
}

/** The file's lines decoded; throws when too many are unreadable to trust the rest. */
function decodeAll(name: string, raw: string[], log: Log): LogLine[] {
  const lines: LogLine[] = [];
  let corrupt = 0;
  raw.forEach((text, at) => {
    const line = decodeLine(text);
    if (line !== undefined) lines.push(line);
    // A crash during an append can leave a torn last line: expected, and nothing acknowledged is lost.
    else if (at < raw.length - 1) corrupt += 1;
    else log.warn('ignoring a torn last line in an embedded collection', { collection: name });
  });
  if (corrupt > 0) {
    if (corrupt / raw.length > CORRUPT_SHARE_REFUSED)
      throw new Error(`${name}.db: ${corrupt} of ${raw.length} lines are unreadable; refusing to load it`);
    log.warn('ignoring unreadable lines in an embedded collection', { collection: name, lines: corrupt });
  }
  return lines;
}
