import { loadConfig } from '../../../platform/config';
import { silentLog } from '../../../platform/log';
import { createStores, openDatabase } from '../../../platform/store';
import { createNodeTokenAdmin } from '../../../browsers/hub';
import { createTeamAdmin } from '../../../platform/teams';

/**
 * The store a local server uses (MONGODB_URL, or the embedded store in DATA_DIR), opened for one
 * keys command. Loaded on demand, so that the client commands of `tabhive` never load the store.
 */
export async function openKeysStore(env: NodeJS.ProcessEnv) {
  const config = loadConfig(env);
  const database = await openDatabase({
    mongodbUrl: config.MONGODB_URL,
    dataDir: config.DATA_DIR,
    log: silentLog,
  });
  try {
    const stores = createStores(database);
    await stores.apiKeys.ensureIndexes();
    await stores.browserNodeTokens.ensureIndexes();
    return {
      teams: createTeamAdmin(stores),
      nodeTokens: createNodeTokenAdmin(stores),
      close: () => database.close(),
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}

export type KeysStore = Awaited<ReturnType<typeof openKeysStore>>;
