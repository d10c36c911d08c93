import {
  createAgentService,
  createBrowserSessionService,
  createCdpRelay,
  createChallengeViews,
  createExtractService,
  createJobRunner,
  createJobService,
  createLiveViewSocket,
  createLlmsTxtService,
  createMapCharging,
  createMapper,
  createMonitors,
  createSearchProvider,
  createSearchService,
  createSessionLeases,
  createReplayRecorder,
  createReplayService,
  createStatusSocket,
  joinLiveSessionDirectories,
  type JobSpec,
} from '../products';
import { HTTP_PAGES_IN_FLIGHT, fastPathEligible } from '../scrape';
import type { SessionBrowsers } from '../browsers';
import { createSmtpMailer, createWebhookSender, type Config, type Lifecycle, type Log } from '../platform';
import type { Browsers } from './compose-browsers';
import type { Platform } from './compose-platform';
import type { Scrape } from './compose-scrape';

/**
 * The products over the scraper: jobs and their webhooks, search, map, extract, agent, llms.txt,
 * monitors, browser sessions with their live view and CDP relay. Each registers its start and close.
 */
export function composeProducts({
  config,
  serverUrl,
  log,
  lifecycle,
  sessionBrowsers,
  webhookRetryDelaysMs,
  platform,
  browsers: { hub, donatedRoutes },
  scrape: { scraper, siteFiles, mapIndexRecorder, tabs, interactOptions },
}: {
  config: Config;
  /** This server's own address: the base of links in e-mail when PUBLIC_URL is unset. */
  serverUrl: string;
  log: Log;
  lifecycle: Lifecycle;
  sessionBrowsers: SessionBrowsers | undefined;
  /** Tests only: the webhook retry schedule. */
  webhookRetryDelaysMs: readonly number[] | undefined;
  platform: Platform;
  browsers: Browsers;
  scrape: Scrape;
}) {
  const { stores, keyring, urlPolicy, egress, llm } = platform;
  const jobs = createJobService({ stores, urlPolicy, donatedRoutes, log });
  // A job page's tab that waits on a challenge page, shown in the live view (its webhook says where).
  const challengeViews = createChallengeViews({ hub, publicUrl: config.PUBLIC_URL ?? serverUrl });
  lifecycle.use('challenge live views', { close: () => challengeViews.stop() });
  const jobRunner = createJobRunner({
    stores,
    scraper,
    egress,
    siteFiles,
    log,
    teamConcurrency: config.TEAM_CONCURRENCY,
    capacity: tabs,
    challengeViews,
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
  // Monitor e-mail goes out through the outbox and the webhook sender, over SMTP_URL.
  const mailer =
    config.SMTP_URL === undefined
      ? undefined
      : createSmtpMailer({
          url: config.SMTP_URL,
          from: config.SMTP_FROM ?? 'Tabhive <tabhive@localhost>',
          host: new URL(config.PUBLIC_URL ?? serverUrl).hostname,
        });
  if (mailer !== undefined) lifecycle.use('smtp mailer', { close: () => mailer.close() });
  const webhookSender = createWebhookSender({
    outbox: stores.webhookOutbox,
    teams: stores.teams,
    egress,
    log,
    mailer,
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
    donatedRoutes,
    siteFiles,
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
    mailEnabled: mailer !== undefined,
    linkBase: config.PUBLIC_URL ?? serverUrl,
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
    // Playwright code reaches its session through the relay (created below, called only later).
    openRelayEndpoint: (session) => cdpRelay.openPrivateEndpoint(session),
  });
  // Closed before the hub: each session's end is booked for the time it ran.
  lifecycle.use('browser sessions', { close: () => browserSessions.stop() });
  // Sessions' replays: the batches their tabs record are stored here, and served from any instance.
  const replayRecorder = createReplayRecorder({ hub, store: stores.sessionReplays, log });
  lifecycle.use('session replay recorder', { close: () => replayRecorder.stop() });
  const sessionReplays = createReplayService({
    sessions: stores.browserSessions,
    replays: stores.sessionReplays,
  });
  // A session's live view page and socket, and its cdpUrl relay.
  const liveSessions = joinLiveSessionDirectories(browserSessions.directory, challengeViews.directory);
  const liveViewSocket = createLiveViewSocket({ keyring, sessions: liveSessions, log });
  lifecycle.use('live view socket', { close: () => liveViewSocket.close() });
  const cdpRelay = createCdpRelay({ keyring, sessions: browserSessions.directory, log, urlPolicy });
  lifecycle.use('CDP relay', { close: () => cdpRelay.close() });
  return {
    jobs,
    jobRunner,
    search,
    statusSocket,
    mapper,
    extract,
    agent,
    llmsTxt,
    monitors,
    browserSessions,
    /** Where the live view finds what it shows: browser sessions, and page tasks that wait on a challenge. */
    liveSessions,
    sessionReplays,
    liveViewSocket,
    cdpRelay,
  };
}

export type Products = ReturnType<typeof composeProducts>;
