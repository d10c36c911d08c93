import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { HUB_PATH } from '../shared/protocol/messages';
import { createApp } from './api/app';
import { resolveDefaultApiKey } from './platform/auth/default-api-key';
import { DEFAULT_TEAM, createStaticKeyring, createStoreKeyring } from './platform/auth/keyring';
import type { Config } from './platform/config';
import type { BrowserTokens } from './browsers/hub/browser-tokens';
import { createCrawlPromptReader } from './products/crawl-prompt/create-crawl-prompt-reader';
import { createBrowserHub, type BrowserHub } from './browsers/hub/create-browser-hub';
import { createNodeTokenDirectory } from './browsers/hub/node-token-directory';
import { createNodeTokenAdmin } from './browsers/hub/node-token-admin';
import { createCluster } from './browsers/cluster/create-cluster';
import { createBrowserSessionService } from './products/browser-sessions/create-browser-session-service';
import { createSessionLeases } from './products/browser-sessions/create-session-leases';
import {
  createInteractOptionsMemory,
  rememberingInteractOptions,
} from './products/browser-sessions/interact-options';
import { createCdpRelay, isCdpRelayPath } from './products/live-view/cdp-relay';
import { createLiveViewSocket, isLiveViewSocketPath } from './products/live-view/live-view-socket';
import { createDonatedBrowserDirectory } from './browsers/hub/donated-browser-directory';
import { createEgress } from './platform/egress/create-egress';
import { HTTP_PAGES_IN_FLIGHT, createBrowserSlots } from './products/jobs/browser-slots';
import { createJobRunner } from './products/jobs/create-job-runner';
import type { JobSpec } from './products/jobs/job-spec';
import { createJobService } from './products/jobs/create-job-service';
import { createStatusSocket, isStatusSocketPath } from './products/jobs/create-status-socket';
import type { LocalLauncher } from './browsers/launcher/create-local-launcher';
import type { SessionBrowsers } from './browsers/launcher/create-session-browsers';
import { createLlmProvider } from './platform/llm/llm-provider';
import { recordTokens } from './platform/teams/record-tokens';
import { createMapCharging } from './products/map/charge-map';
import { createMapIndexRecorder } from './products/map/create-map-index-recorder';
import { createMapper } from './products/map/create-mapper';
import { createExtractService } from './products/extract/create-extract-service';
import { createLlmsTxtService } from './products/llmstxt/create-llms-txt-service';
import { createAgentService } from './products/agent/create-agent-service';
import { createToolCallingLlm } from './platform/llm/llm-tool-calls';
import { createMonitors } from './products/monitors/create-monitors';
import { createPairingService } from './browsers/pairing/create-pairing-service';
import { addPageToSearchIndex } from './products/search/add-page-to-search-index';
import type { Log } from './platform/log/log';
import { createCachedCapture } from './scrape/cached-capture';
import { withCharging } from './scrape/charge-scrape';
import { withTeamConcurrency } from './scrape/with-team-concurrency';
import { createTeamAdmin } from './platform/teams/team-admin';
import { createConsoleDeps } from './api/console/create-console-deps';
import { createTeamLimits } from './platform/teams/team-limits';
import { createUsageReports } from './platform/teams/usage-reports';
import { createScraper } from './scrape/create-scraper';
import { createHttpFastPath } from './scrape/fast-path/create-http-fast-path';
import { fastPathEligible } from './scrape/fast-path/fast-path-eligible';
import { createSearchProvider } from './products/search/create-search-provider';
import { createSearchService } from './products/search/create-search-service';
import type { RequestHandler, RunningTabhive, StartOptions, UpgradeHandler } from './start-tabhive';
import { createDerivationPool } from './scrape/derive/create-derivation-pool';
import { deriveByKind } from './scrape/derive/derive-by-kind';
import { createStores } from './platform/store/create-stores';
import { openDatabase } from './platform/store/open-database';
import { prepareStores } from './platform/store/prepare-stores';
import { createUrlPolicy } from './platform/url-policy/create-url-policy';
import { createWebhookSender } from './platform/webhooks/create-webhook-sender';
import { countCacheLookups } from './scrape/metrics/count-cache-lookups';
import { countScrapedPages } from './scrape/metrics/count-scraped-pages';
import { createTabhiveMetrics } from './platform/metrics/create-tabhive-metrics';
import { registerHubGauges } from './browsers/metrics/hub-gauges';
import { instrumentDatabase } from './platform/metrics/instrument-database';
import { markHttpCaptures } from './scrape/metrics/mark-http-captures';
import { registerStoreGauges } from './platform/metrics/store-gauges';
import { timeBrowserTasks } from './browsers/metrics/time-browser-tasks';
import { writeWebhookSecret } from './platform/webhooks/write-webhook-secret';

/**
 * The store, the hub and the API, served on the listening server once composed: the part of a
 * start that startTabhive loads only once the browsers are launched (it holds nearly all of the
 * server's code and dependencies, whose loading would otherwise come first).
 */
export async function composeTabhive({
  config,
  server,
  log,
  tokens,
  launcher,
  stealthLauncher,
  sessionBrowsers,
  url,
  serve,
  webhookRetryDelaysMs,
  lookup,
}: Omit<StartOptions, 'extensionDir' | 'extraChromeArgs' | 'browserRelaunchMs'> & {
  config: Config;
  server: Server;
  log: Log;
  tokens: BrowserTokens;
  launcher: LocalLauncher | undefined;
  stealthLauncher: LocalLauncher | undefined;
  /** Browsers launched for one browser session each; undefined when none are launched here. */
  sessionBrowsers?: SessionBrowsers | undefined;
  url: string;
  serve(hub: BrowserHub, handleRequest: RequestHandler, handleUpgrade: UpgradeHandler): void;
}): Promise<RunningTabhive> {
  const defaultKey = await resolveDefaultApiKey({ configured: config.API_KEY, dataDir: config.DATA_DIR });
  // This instance's metrics; its store operations are timed from here on.
  const metrics = createTabhiveMetrics();
  const database = instrumentDatabase(
    await openDatabase({ mongodbUrl: config.MONGODB_URL, dataDir: config.DATA_DIR, log }),
    metrics,
  );
  // This process among the instances sharing the database (registry, reservations it holds).
  const instanceId = randomUUID();
  const stores = createStores(database, { instanceId });
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
  const stopStoreTimers = prepareStores(stores, log);
  const hub = createBrowserHub({
    log,
    tokens,
    tabsPerBrowser: config.TABS_PER_BROWSER,
    donatedBrowsers: createDonatedBrowserDirectory({
      registrations: stores.browserRegistrations,
      teams: stores.teams,
    }),
    nodeTokens: createNodeTokenDirectory(stores.browserNodeTokens),
    ...(sessionBrowsers === undefined ? {} : { reservations: sessionBrowsers }),
  });
  const cluster = createCluster({
    hub,
    stores,
    log,
    clustered,
    instanceId,
    isolatesUpdates: () => database.isolatesUpdates(),
  });
  // Team ids only for an operator who set METRICS_TOKEN: an open /metrics names no tenant.
  registerHubGauges(metrics, hub, { teamIds: config.METRICS_TOKEN !== undefined });
  registerStoreGauges(metrics, { pageTasks: stores.pageTasks, webhookOutbox: stores.webhookOutbox, log });
  const runTask = timeBrowserTasks(cluster.runTask, metrics);
  const derivationPool = createDerivationPool({ log });
  // Documents (uploads and scraped PDFs) in a pool of their own, whose worker is recycled after
  // each: a hostile document never holds the workers pages need, and gives back all it took.
  const documentPool = createDerivationPool({ log, size: 1, name: 'document', recycle: true, heapMb: 768 });
  const workProblems = () => [...derivationPool.problems(), ...documentPool.problems()];
  const mapIndexRecorder = createMapIndexRecorder({ mapIndex: stores.mapIndex, log });
  const networkSettings = {
    allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
    allowedPrivateHosts: config.ALLOWED_PRIVATE_HOSTS,
    ...(lookup === undefined ? {} : { lookup }),
  };
  const urlPolicy = createUrlPolicy(networkSettings);
  const egress = createEgress(networkSettings);
  log.info('network policy', {
    privateNetworks: config.ALLOW_PRIVATE_NETWORKS ? 'allowed' : 'blocked',
    allowedPrivateHosts: config.ALLOWED_PRIVATE_HOSTS,
    store: database.kind,
    browsers: config.BROWSERS,
    ...(config.STEALTH_PROXY_URL === undefined ? {} : { stealthBrowsers: config.STEALTH_BROWSERS }),
    httpFastPath: config.HTTP_FAST_PATH,
  });
  const llm = createLlmProvider({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    onTokens: (tokens) => recordTokens(stores.usageMonths, tokens, log),
  });
  const scraperParts = {
    fastPath: config.HTTP_FAST_PATH
      ? markHttpCaptures(createHttpFastPath({ egress, deriveFetched: derivationPool.deriveFetched }), metrics)
      : undefined,
    derive: deriveByKind({ pages: derivationPool, documents: documentPool }),
    runTask,
    donatedCovers: hub.donatedCovers,
    connectedBrowsers: cluster.connectedBrowsers,
    urlPolicy,
    cachedCapture: countCacheLookups(createCachedCapture({ cache: stores.cache, log }), metrics),
    results: stores.results,
    log,
    llm,
    changeSnapshots: stores.changeSnapshots,
    mapIndex: mapIndexRecorder,
    searchIndex: stores.searchIndex,
    browserProfiles: stores.browserProfiles,
  };
  const scraper = countScrapedPages(createScraper(scraperParts), metrics, 'scrape');
  const tabs = () => hub.poolTabs('basic');
  // Job pages hold a tab only when they go to a browser; those served over HTTP do not wait for one.
  // They may fill every tab: a task someone waits for (a scrape, a search) takes the next tab that
  // frees, ahead of the job's pages (task-scheduler.ts priorities).
  const jobBrowserSlots = createBrowserSlots(tabs);
  const jobScraper = countScrapedPages(
    createScraper({
      ...scraperParts,
      runTask: (spec, options) =>
        jobBrowserSlots.run(() => runTask(spec, { ...options, priority: 'background' })),
    }),
    metrics,
    'job',
  );
  const jobs = createJobService({ stores, urlPolicy, log });
  const jobRunner = createJobRunner({
    stores,
    scraper: jobScraper,
    egress,
    log,
    teamConcurrency: config.TEAM_CONCURRENCY,
    capacity: tabs,
    ...(config.HTTP_FAST_PATH
      ? {
          httpPages: {
            extra: HTTP_PAGES_IN_FLIGHT,
            eligible: (spec: JobSpec) => fastPathEligible(spec.scrapeOptions),
          },
        }
      : {}),
  });
  const webhookSender = createWebhookSender({
    outbox: stores.webhookOutbox,
    teams: stores.teams,
    egress,
    log,
    ...(webhookRetryDelaysMs === undefined ? {} : { retryDelaysMs: webhookRetryDelaysMs }),
  });
  // SearXNG is the operator's own service, usually on a private network: its egress allows that.
  const searxngEgress = createEgress({ allowPrivateNetworks: true });
  const search = createSearchService({
    provider: createSearchProvider({ config, searchIndex: stores.searchIndex, scraper, searxngEgress }),
    scraper,
    creditLedger: stores.creditLedger,
    teams: stores.teams,
    allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
    log,
  });
  const statusSocket = createStatusSocket({ keyring, jobs, stores, log });
  const mapper = createMapper({
    egress,
    scraper,
    urlPolicy,
    mapIndex: stores.mapIndex,
    sitemapFetches: stores.sitemapFetches,
    recorder: mapIndexRecorder,
    charging: createMapCharging({ teams: stores.teams, creditLedger: stores.creditLedger, log }),
    log,
  });
  // Extract pages are job pages (background priority, job tabs) booked and admitted as scrapes.
  const extract = createExtractService({
    stores,
    scraper: withTeamConcurrency(
      withCharging(jobScraper, { creditLedger: stores.creditLedger, log }),
      teamLimits,
    ),
    mapper,
    search,
    llm,
    urlPolicy,
    log,
  });
  // Agent and deep research pages are job pages too, booked and admitted as scrapes.
  const agent = createAgentService({
    stores,
    llm: createToolCallingLlm({
      baseUrl: config.LLM_BASE_URL,
      apiKey: config.LLM_API_KEY,
      model: config.LLM_MODEL,
      onTokens: (tokens) => recordTokens(stores.usageMonths, tokens, log),
    }),
    scraper: withTeamConcurrency(
      withCharging(jobScraper, { creditLedger: stores.creditLedger, log }),
      teamLimits,
    ),
    search,
    mapper,
    urlPolicy,
    log,
  });
  // llms.txt pages are job pages too, booked and admitted as scrapes.
  const llmsTxt = createLlmsTxtService({
    stores,
    scraper: withTeamConcurrency(
      withCharging(jobScraper, { creditLedger: stores.creditLedger, log }),
      teamLimits,
    ),
    mapper,
    llm,
    urlPolicy,
    log,
  });
  // Monitor checks scrape as job pages (background priority), each page booked as a scrape.
  const monitors = createMonitors({
    stores,
    scraper: withCharging(jobScraper, { creditLedger: stores.creditLedger, log }),
    jobs,
    search,
    llm,
    urlPolicy,
    log,
    minIntervalSeconds: config.MONITOR_MIN_INTERVAL_SECONDS,
  });
  // Browser sessions lease a tab each for their whole life; interactions reopen a scrape's page.
  const interactOptions = createInteractOptionsMemory();
  const browserSessions = createBrowserSessionService({
    leases: createSessionLeases({
      hub,
      sessions: stores.browserSessions,
      creditLedger: stores.creditLedger,
      teams: stores.teams,
      browserProfiles: stores.browserProfiles,
      urlPolicy,
      sessionBrowsers,
      log,
    }),
    store: stores.browserSessions,
    results: stores.results,
    interactOptions,
    llm,
    log,
  });
  // A session's live view page and socket, and its cdpUrl relay.
  const liveViewSocket = createLiveViewSocket({ keyring, sessions: browserSessions.directory, log });
  const cdpRelay = createCdpRelay({ keyring, sessions: browserSessions.directory, log, urlPolicy });
  const pairingService = createPairingService({
    pairingCodes: stores.pairingCodes,
    registrations: stores.browserRegistrations,
    teams: stores.teams,
    disconnect: hub.disconnectRevoked,
  });
  const app = createApp({
    parseMaxFileBytes: config.PARSE_MAX_FILE_BYTES,
    parseDerive: documentPool.derive,
    browserSessions,
    liveSessions: browserSessions.directory,
    jobs,
    mapper,
    extract,
    llmsTxt,
    agent,
    monitors: monitors.service,
    readCrawlPrompt: createCrawlPromptReader({ llm, log }),
    search,
    log,
    keyring,
    // Single scrapes hold a team slot and are booked here; jobs book their own pages.
    scraper: rememberingInteractOptions(
      withTeamConcurrency(withCharging(scraper, { creditLedger: stores.creditLedger, log }), teamLimits),
      interactOptions,
    ),
    results: stores.results,
    connectedBrowsers: hub.connectedBrowsers,
    storeKind: database.kind,
    pairing: {
      service: pairingService,
      connectedIds: () => new Set(hub.browserStatuses().map((browser) => browser.browserId)),
      savePage: (teamId, page) =>
        addPageToSearchIndex(stores.searchIndex, { teamId, ...page, source: 'donated' }),
    },
    teams: {
      store: stores.teams,
      limits: teamLimits,
      reports: createUsageReports({
        usageMonths: stores.usageMonths,
        creditLedger: stores.creditLedger,
        pageTasks: stores.pageTasks,
        limits: teamLimits,
      }),
    },
    ...(config.ADMIN_API_KEY === undefined
      ? {}
      : {
          admin: {
            admin: createTeamAdmin(stores),
            adminApiKey: config.ADMIN_API_KEY,
            browsers: () => hub.engineStats(),
            nodeTokens: createNodeTokenAdmin(stores),
            pairing: pairingService,
          },
        }),
    publicUrl: config.PUBLIC_URL,
    console: createConsoleDeps({ database, stores, hub, metrics, adminApiKey: config.ADMIN_API_KEY }),
    observability: {
      metrics: { registry: metrics.registry, token: config.METRICS_TOKEN },
      readiness: {
        pingStore: () => database.ping(),
        browsersAvailable: () => cluster.browsersInCluster(),
        servesBrowserWork: config.BROWSERS > 0,
        workProblems,
      },
    },
  });

  serve(hub, app.callback(), (request, socket, head) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname === HUB_PATH) hub.handleUpgrade(request, socket, head);
    else if (isStatusSocketPath(pathname)) void statusSocket.handleUpgrade(request, socket, head);
    else if (isLiveViewSocketPath(pathname)) liveViewSocket.handleUpgrade(request, socket, head);
    else if (isCdpRelayPath(pathname)) void cdpRelay.handleUpgrade(request, socket, head);
    else socket.destroy();
  });

  // The default team and its webhook secret exist before the first job; a database that is down
  // now only delays them (jobs create their team, the sender makes the secret on first use).
  await stores.teams
    .ensure({ id: DEFAULT_TEAM.id, name: DEFAULT_TEAM.name })
    .then(() => stores.apiKeys.setConfigured({ apiKey: defaultKey.apiKey, teamId: DEFAULT_TEAM.id }))
    .then(() => stores.teams.webhookSecret(DEFAULT_TEAM.id))
    .then((secret) => (secret === undefined ? undefined : writeWebhookSecret(config.DATA_DIR, secret)))
    .catch((err: unknown) => log.warn('could not prepare the default team', { error: String(err) }));
  jobRunner.start();
  cluster.start();
  webhookSender.start();
  monitors.start();
  // Every page's formats come from these workers, whose code takes a worker a few hundred ms to
  // load (more on a busy machine). Started once the API is up rather than with it: loading them
  // alongside the API's own code and the browser's start slowed a cold start by 100-200 ms.
  derivationPool.warm();
  // The document pool is not warmed: documents are rare, its worker is ended after each one
  // anyway, and an idle worker from the start would cost every server memory and start-up CPU.
  return {
    url,
    hub,
    stores,
    launcher,
    browserTokens: tokens,
    jobRunner,
    jobBrowserSlots,
    liveSessions: browserSessions.directory,
    generatedApiKey: defaultKey.generated ? defaultKey.apiKey : undefined,
    apiKeyFile: defaultKey.file,
    async stop() {
      await monitors.stop();
      await extract.stop();
      await llmsTxt.stop();
      await agent.stop();
      await jobRunner.stop();
      await cluster.stop();
      webhookSender.stop();
      statusSocket.close();
      liveViewSocket.close();
      cdpRelay.close();
      // Before the hub closes: each session's end is booked for the time it ran.
      await browserSessions.stop();
      await sessionBrowsers?.stop();
      server.close();
      server.closeAllConnections();
      await hub.close();
      await launcher?.stop();
      await stealthLauncher?.stop();
      await derivationPool.close();
      await documentPool.close();
      stopStoreTimers();
      await mapIndexRecorder.idle();
      await egress.close();
      await searxngEgress.close();
      await database.close();
    },
    killBrowsersNow: () => {
      launcher?.killNow();
      stealthLauncher?.killNow();
      sessionBrowsers?.killNow();
    },
  };
}
