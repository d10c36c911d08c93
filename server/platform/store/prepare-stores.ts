import type { Log } from '../log';
import { ensureIndexes, purgeExpired, type Stores } from './create-stores';
import { StoreUnavailableError } from './database';

/** How often expired cache entries, results, jobs and map entries are removed. */
export const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** While the database is unreachable at start, index creation is retried this often. */
const INDEX_RETRY_MS = 5_000;

/**
 * Creates indexes and starts the periodic purge. A database that is down at start does not stop
 * the server: it comes up, storage-backed requests answer 503 meanwhile, and the indexes are
 * created as soon as the database answers. Returns a function that stops the timers.
 */
export function prepareStores(stores: Stores, log: Log): () => void {
  let indexTimer: NodeJS.Timeout | undefined;
  const createIndexes = async () => {
    try {
      await ensureIndexes(stores);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      log.warn('database unavailable; will create indexes when it answers', { error: err.message });
      indexTimer = setTimeout(() => void createIndexes(), INDEX_RETRY_MS);
      indexTimer.unref();
    }
  };
  void createIndexes().catch((err: unknown) => log.error('could not create indexes', { error: String(err) }));

  const purgeTimer = setInterval(() => {
    purgeExpired(stores).catch((err: unknown) => log.warn('purge failed', { error: String(err) }));
  }, PURGE_INTERVAL_MS);
  purgeTimer.unref();

  return () => {
    clearTimeout(indexTimer);
    clearInterval(purgeTimer);
  };
}
