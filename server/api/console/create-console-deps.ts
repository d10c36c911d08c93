import type { Log } from '../../platform/log';
import type { Database, Stores } from '../../platform/store';
import { createConsoleFigures } from './console-figures';
import { createConsoleJobReader } from './console-job-reader';
import { createConsoleUsage } from './console-usage';
import type { ConsoleDeps } from './console-routes';

/**
 * What the console's routes read, from the parts compose-api.ts has built. Its figure history
 * samples on a timer: the caller starts it and stops it (`figures.start`, `figures.stop`).
 */
export function createConsoleDeps({
  database,
  stores,
  hub,
  metrics,
  adminApiKey,
  clustered = false,
  log,
}: Omit<ConsoleDeps, 'jobReader' | 'usage' | 'figures' | 'clustered'> & {
  database: Database;
  stores: Stores;
  clustered?: boolean;
  log: Log;
}): ConsoleDeps {
  return {
    jobReader: createConsoleJobReader({ database, stores }),
    usage: createConsoleUsage({ database }),
    figures: createConsoleFigures({ database, stores, hub, metrics, clustered, log }),
    clustered,
    hub,
    metrics,
    adminApiKey,
  };
}
