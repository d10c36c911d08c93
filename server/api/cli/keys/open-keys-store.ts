import { loadConfig } from '../../../platform/config';
import { silentLog } from '../../../platform/log';
import { createStores, embeddedStoreHolder, openDatabase } from '../../../platform/store';
import { createNodeTokenAdmin } from '../../../browsers/hub';
import { createTeamAdmin } from '../../../platform/teams';
import { adminApiUrl, createKeysAdminApi } from './keys-admin-api';
import type { KeysBackend } from './keys-backend';

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

/**
 * Where a keys command acts: on the store, unless a running server holds the embedded store for
 * itself and ADMIN_API_KEY is set, in which case through that server's admin API (the store
 * cannot be opened beside it; MongoDB is shared, so it always is).
 */
export async function openKeysBackend(
  env: NodeJS.ProcessEnv,
  apiUrl: string | undefined,
): Promise<KeysBackend> {
  const adminApiKey = env.ADMIN_API_KEY;
  if (adminApiKey !== undefined && adminApiKey !== '') {
    const config = loadConfig(env);
    const holder = await embeddedStoreHolder({ mongodbUrl: config.MONGODB_URL, dataDir: config.DATA_DIR });
    if (holder !== undefined) return createKeysAdminApi({ apiUrl: adminApiUrl(apiUrl, env), adminApiKey });
  }
  return openKeysStore(env);
}
