import type { Database, Stores } from '../../platform/store';
import { createConsoleJobReader } from './console-job-reader';
import { createConsoleUsage } from './console-usage';
import type { ConsoleDeps } from './console-routes';

/** What the console's routes read, from the parts compose-tabhive.ts has built. */
export function createConsoleDeps({
  database,
  stores,
  hub,
  metrics,
  adminApiKey,
}: Omit<ConsoleDeps, 'jobReader' | 'usage'> & { database: Database; stores: Stores }): ConsoleDeps {
  return {
    jobReader: createConsoleJobReader({ database, stores }),
    usage: createConsoleUsage({ database }),
    hub,
    metrics,
    adminApiKey,
  };
}
