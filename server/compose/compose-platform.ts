import { randomUUID } from 'node:crypto';
import {
  resolveDefaultApiKey,
  DEFAULT_TEAM,
  createStaticKeyring,
  createStoreKeyring,
  type Config,
  createEgress,
  type Lifecycle,
  createLlmProvider,
  createToolCallingLlm,
  type Log,
  createTabhiveMetrics,
  instrumentDatabase,
  registerStoreGauges,
  createStores,
  openDatabase,
  prepareStores,
  createTeamLimits,
  recordTokens,
  createUrlPolicy,
  type LookupFn,
  type ProxyPool,
  registerProxyPoolMetrics,
} from '../platform';

/**
 * The floor everything else stands on: the database and its stores, the keys, the teams' limits,
 * the network policy and its egress, the metrics, the models. Each part registers its close.
 */
export async function composePlatform({
  config,
  log,
  lifecycle,
  lookup,
  proxyPool,
}: {
  config: Config;
  log: Log;
  lifecycle: Lifecycle;
  /** Tests only: DNS for the URL policy and the egress. */
  lookup?: LookupFn | undefined;
  /** PROXY_POOL's proxies, for the egress's GETs (the fast path, robots.txt, sitemaps). */
  proxyPool?: ProxyPool | undefined;
}) {
  const defaultKey = await resolveDefaultApiKey({ configured: config.API_KEY, dataDir: config.DATA_DIR });
  // This instance's metrics; its store operations are timed from here on.
  const metrics = createTabhiveMetrics();
  const database = instrumentDatabase(
    await openDatabase({ mongodbUrl: config.MONGODB_URL, dataDir: config.DATA_DIR, log }),
    metrics,
  );
  lifecycle.use('database', { close: () => database.close() });
  // This process among the instances sharing the database (registry, reservations it holds).
  const instanceId = randomUUID();
  const stores = createStores(database, { instanceId });
  lifecycle.use('store timers', { close: prepareStores(stores, log) });
  registerStoreGauges(metrics, { pageTasks: stores.pageTasks, webhookOutbox: stores.webhookOutbox, log });
  // The configured key works even while the database is down; every other key lives in the store.
  const keyring = createStoreKeyring({
    apiKeys: stores.apiKeys,
    teams: stores.teams,
    fixed: createStaticKeyring([{ apiKey: defaultKey.apiKey, team: DEFAULT_TEAM }]),
  });
  // Several instances may share a MongoDB: what is per cluster then goes through the store.
  const clustered = database.kind === 'mongodb';
  const teamLimits = createTeamLimits({
    teams: stores.teams,
    pageTasks: stores.pageTasks,
    rateWindows: stores.rateWindows,
    ...(clustered ? { concurrencySlots: stores.concurrencySlots } : {}),
    defaults: { concurrency: config.TEAM_CONCURRENCY, ratePerMinute: config.RATE_LIMIT_PER_MINUTE },
    log,
  });
  const networkSettings = {
    allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
    allowedPrivateHosts: config.ALLOWED_PRIVATE_HOSTS,
    ...(lookup === undefined ? {} : { lookup }),
  };
  const urlPolicy = createUrlPolicy(networkSettings);
  const egress = createEgress({ ...networkSettings, proxyPool });
  if (proxyPool !== undefined) registerProxyPoolMetrics(metrics.registry, proxyPool);
  lifecycle.use('egress', { close: () => egress.close() });
  // SearXNG is the operator's own service, usually on a private network: its egress allows that.
  const searxngEgress = createEgress({ allowPrivateNetworks: true });
  lifecycle.use('SearXNG egress', { close: () => searxngEgress.close() });
  log.info('network policy', {
    privateNetworks: config.ALLOW_PRIVATE_NETWORKS ? 'allowed' : 'blocked',
    allowedPrivateHosts: config.ALLOWED_PRIVATE_HOSTS,
    store: database.kind,
    browsers: config.BROWSERS,
    ...(config.STEALTH_PROXY_URL === undefined ? {} : { stealthBrowsers: config.STEALTH_BROWSERS }),
    httpFastPath: config.HTTP_FAST_PATH,
  });
  const model = {
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    onTokens: (tokens: number) => recordTokens(stores.usageMonths, tokens, log),
  };
  return {
    defaultKey,
    metrics,
    database,
    instanceId,
    stores,
    keyring,
    clustered,
    teamLimits,
    urlPolicy,
    egress,
    searxngEgress,
    proxyPool,
    llm: createLlmProvider(model),
    /** The agent's model, which calls tools. */
    toolLlm: createToolCallingLlm(model),
  };
}

export type Platform = Awaited<ReturnType<typeof composePlatform>>;
