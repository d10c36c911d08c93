import type { Server } from 'node:http';
import { HUB_PATH } from '../shared/protocol/messages';
import { createApp, createConsoleDeps } from './api';
import {
  DEFAULT_TEAM,
  type Config,
  type Log,
  createTeamAdmin,
  createUsageReports,
  type Lifecycle,
  createWebhookSender,
  writeWebhookSecret,
} from './platform';
import {
  type BrowserTokens,
  type BrowserHub,
  createNodeTokenAdmin,
  type LocalLauncher,
  type SessionBrowsers,
} from './browsers';
import {
  createCrawlPromptReader,
  createBrowserSessionService,
  createSessionLeases,
  createCdpRelay,
  isCdpRelayPath,
  createLiveViewSocket,
  isLiveViewSocketPath,
  createJobRunner,
  type JobSpec,
  createJobService,
  createStatusSocket,
  isStatusSocketPath,
  createMapCharging,
  createMapIndexRecorder,
  createMapper,
  createExtractService,
  createLlmsTxtService,
  createAgentService,
  createMonitors,
  addPageToSearchIndex,
  createSearchProvider,
  createSearchService,
  searchIndexSink,
} from './products';
import {
  createInteractOptionsMemory,
  HTTP_PAGES_IN_FLIGHT,
  createBrowserSlots,
  createCachedCapture,
  createScraper,
  createHttpFastPath,
  fastPathEligible,
  createDerivationPool,
  deriveByKind,
  countCacheLookups,
  markHttpCaptures,
} from './scrape';
import type { RequestHandler, RunningTabhive, StartOptions, UpgradeHandler } from './running-tabhive';
import { composeBrowsers } from './compose/compose-browsers';
import { composePlatform } from './compose/compose-platform';

/**
 * The store, the hub and the API, served on the listening server once composed: the part of a
 * start that startTabhive loads only once the browsers are launched (it holds nearly all of the
 * server's code and dependencies, whose loading would otherwise come first).
 */
export async function composeTabhive({
  config,
  server,
  log,
  lifecycle,
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
  /** Where each component registers its start and close as it is made. */
  lifecycle: Lifecycle;
  tokens: BrowserTokens;
  launcher: LocalLauncher | undefined;
  stealthLauncher: LocalLauncher | undefined;
  /** Browsers launched for one browser session each; undefined when none are launched here. */
  sessionBrowsers?: SessionBrowsers | undefined;
  url: string;
  serve(hub: BrowserHub, handleRequest: RequestHandler, handleUpgrade: UpgradeHandler): void;
}): Promise<RunningTabhive> {
  const platform = await composePlatform({ config, log, lifecycle, lookup });
  const { defaultKey, metrics, database, stores, keyring, teamLimits, urlPolicy, egress, llm } = platform;
  const { hub, cluster, pairing, runTask } = composeBrowsers({
    config,
    log,
    lifecycle,
    server,
    tokens,
    sessionBrowsers,
    platform,
  });
  const derivationPool = createDerivationPool({ log });
  // Every page's formats come from these workers, whose code takes a worker a few hundred ms to
  // load. Warmed once the API is up rather than with it: loading them alongside the API's own code
  // and the browser's start slowed a cold start by 100-200 ms.
  lifecycle.use('derivation pool', {
    start: () => derivationPool.warm(),
    close: () => derivationPool.close(),
  });
  // Documents (uploads and scraped PDFs) in a pool of their own, whose worker is recycled after
  // each: a hostile document never holds the workers pages need, and gives back all it took.
  // Not warmed: documents are rare, its worker is ended after each one anyway, and an idle worker
  // from the start would cost every server memory and start-up CPU.
  const documentPool = createDerivationPool({ log, size: 1, name: 'document', recycle: true, heapMb: 768 });
  lifecycle.use('document pool', { close: () => documentPool.close() });
  const workProblems = () => [...derivationPool.problems(), ...documentPool.problems()];
  const mapIndexRecorder = createMapIndexRecorder({ mapIndex: stores.mapIndex, log });
  lifecycle.use('map index recorder', { close: () => mapIndexRecorder.idle() });
  const tabs = () => hub.poolTabs('basic');
  // Job pages hold a tab only when they go to a browser; those served over HTTP do not wait for one.
  // They may fill every tab: a task someone waits for (a scrape, a search) takes the next tab that
  // frees, ahead of the job's pages (task-scheduler.ts priorities).
  const jobBrowserSlots = createBrowserSlots(tabs);
  // The page settings of API scrapes, for interactions that reopen a scrape's page.
  const interactOptions = createInteractOptionsMemory();
  // The one scraper: each caller says in its context who asks (ScrapeAdmission), which decides the
  // team slot, the credits, the job browser slots and the metrics of its pages.
  const scraper = createScraper({
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
    searchIndex: searchIndexSink(stores.searchIndex),
    browserProfiles: stores.browserProfiles,
    teamLimits,
    creditLedger: stores.creditLedger,
    jobBrowserSlots,
    metrics,
    interactOptions,
  });
  const jobs = createJobService({ stores, urlPolicy, log });
  const jobRunner = createJobRunner({
    stores,
    scraper,
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
  lifecycle.use('job runner', { start: () => jobRunner.start(), close: () => jobRunner.stop() });
  const webhookSender = createWebhookSender({
    outbox: stores.webhookOutbox,
    teams: stores.teams,
    egress,
    log,
    ...(webhookRetryDelaysMs === undefined ? {} : { retryDelaysMs: webhookRetryDelaysMs }),
  });
  lifecycle.use('webhook sender', { start: () => webhookSender.start(), close: () => webhookSender.stop() });
  const { searxngEgress } = platform;
  const search = createSearchService({
    provider: createSearchProvider({ config, searchIndex: stores.searchIndex, scraper, searxngEgress }),
    scraper,
    creditLedger: stores.creditLedger,
    teams: stores.teams,
    allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
    log,
  });
  const statusSocket = createStatusSocket({ keyring, jobs, stores, log });
  lifecycle.use('job status socket', { close: () => statusSocket.close() });
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
    scraper,
    mapper,
    search,
    llm,
    urlPolicy,
    log,
  });
  lifecycle.use('extract', { close: () => extract.stop() });
  // Agent and deep research pages are job pages too, booked and admitted as scrapes.
  const agent = createAgentService({
    stores,
    llm: platform.toolLlm,
    scraper,
    search,
    mapper,
    urlPolicy,
    log,
  });
  lifecycle.use('agent', { close: () => agent.stop() });
  // llms.txt pages are job pages too, booked and admitted as scrapes.
  const llmsTxt = createLlmsTxtService({
    stores,
    scraper,
    mapper,
    llm,
    urlPolicy,
    log,
  });
  lifecycle.use('llms.txt', { close: () => llmsTxt.stop() });
  // Monitor checks scrape as job pages (background priority), each page booked as a scrape.
  const monitors = createMonitors({
    stores,
    scraper,
    jobs,
    search,
    llm,
    urlPolicy,
    log,
    minIntervalSeconds: config.MONITOR_MIN_INTERVAL_SECONDS,
  });
  lifecycle.use('monitors', { start: () => monitors.start(), close: () => monitors.stop() });
  // Browser sessions lease a tab each for their whole life; interactions reopen a scrape's page.
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
  // Closed before the hub: each session's end is booked for the time it ran.
  lifecycle.use('browser sessions', { close: () => browserSessions.stop() });
  // A session's live view page and socket, and its cdpUrl relay.
  const liveViewSocket = createLiveViewSocket({ keyring, sessions: browserSessions.directory, log });
  lifecycle.use('live view socket', { close: () => liveViewSocket.close() });
  const cdpRelay = createCdpRelay({ keyring, sessions: browserSessions.directory, log, urlPolicy });
  lifecycle.use('CDP relay', { close: () => cdpRelay.close() });
  const pairingService = pairing;
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
    // Single scrapes (admission 'api') hold a team slot and are booked; jobs book their own pages.
    scraper,
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
  lifecycle.start();
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
    stop: () => lifecycle.close(),
    killBrowsersNow: () => {
      launcher?.killNow();
      stealthLauncher?.killNow();
      sessionBrowsers?.killNow();
    },
  };
}
