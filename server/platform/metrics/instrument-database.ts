import { StoreUnavailableError, type Collection, type Database, type StoredDocument } from '../store';
import type { TabhiveMetrics } from './create-tabhive-metrics';

type StoreMetrics = Pick<TabhiveMetrics, 'storeOperationDuration' | 'storeErrors'>;

/** The Collection methods that reach the backend, each timed under its own name. */
const OPERATIONS = [
  'insertOne',
  'insertManyIfAbsent',
  'findOne',
  'find',
  'countDocuments',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'createIndex',
] as const satisfies ReadonlyArray<keyof Collection<StoredDocument>>;

/** Fails the type check when Collection gains a method that OPERATIONS does not time. */
type Untimed = Exclude<keyof Collection<StoredDocument>, 'name' | (typeof OPERATIONS)[number]>;
const everyOperationTimed: [Untimed] extends [never] ? true : Untimed = true;
void everyOperationTimed;

/**
 * The database with every collection operation timed into `tabhive_store_operation_duration_seconds`
 * (by collection and operation), and those that found the store unavailable counted. The stores
 * above it see the same interface and the same results and errors.
 */
export function instrumentDatabase(database: Database, metrics: StoreMetrics): Database {
  const wrapped = new Map<string, Collection<StoredDocument>>();
  const instrument = (inner: Collection<StoredDocument>): Collection<StoredDocument> => {
    const timed = (operation: (typeof OPERATIONS)[number]) => {
      const run = inner[operation].bind(inner) as (...args: unknown[]) => Promise<unknown>;
      const labels = { collection: inner.name, operation };
      return async (...args: unknown[]) => {
        const stop = metrics.storeOperationDuration.startTimer(labels);
        try {
          return await run(...args);
        } catch (err) {
          if (err instanceof StoreUnavailableError) metrics.storeErrors.inc(labels);
          throw err;
        } finally {
          stop();
        }
      };
    };
    const methods = Object.fromEntries(OPERATIONS.map((operation) => [operation, timed(operation)]));
    // The same methods with the same signatures, each wrapped: the cast only restores their types.
    return { name: inner.name, ...methods } as unknown as Collection<StoredDocument>;
  };
  return {
    kind: database.kind,
    collection<T extends StoredDocument>(name: string): Collection<T> {
      let collection = wrapped.get(name);
      if (collection === undefined) {
        collection = instrument(database.collection<StoredDocument>(name));
        wrapped.set(name, collection);
      }
      return collection as unknown as Collection<T>;
    },
    ping: () => database.ping(),
    isolatesUpdates: () => database.isolatesUpdates(),
    close: () => database.close(),
  };
}
