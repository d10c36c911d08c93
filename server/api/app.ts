import Koa from 'koa';
import compose from 'koa-compose';
import type { Keyring } from '../platform/auth';
import { createCrawlPromptReader, type CrawlPromptReader } from '../products/crawl-prompt';
import {
  authenticate,
  cors,
  errorHandler,
  notFound,
  limitRate,
  createPublicUrl,
  readJsonBody,
  requestLog,
} from './http';
import type { Log } from '../platform/log';
import type { JobService } from '../products/jobs';
import type { Mapper } from '../products/map';
import type { SavedPageRequest } from '../../shared/api/tabhive/browser-pairing';
import type { PairingService } from '../browsers/pairing';
import {
  batchRoutes,
  MAX_PAIR_BODY_BYTES,
  browserRoutes,
  browserSessionRoutes,
  crawlRoutes,
  extractRoutes,
  llmsTxtRoutes,
  agentRoutes,
  deepResearchRoutes,
  monitorRoutes,
  notificationRoutes,
  adminRoutes,
  healthRoutes,
  mapRoutes,
  openApiRoutes,
  parseRoutes,
  replayRoutes,
  scrapeRoutes,
  searchRoutes,
  usageRoutes,
  v1ScrapeRoutes,
} from './routes';
import type {
  BrowserSessionService,
  LiveSessionDirectory,
  ReplayService,
} from '../products/browser-sessions';
import { liveViewRoutes } from '../products/live-view';
import { consoleRoutes, type ConsoleDeps } from './console';
import type { ExtractService } from '../products/extract';
import type { LlmsTxtService } from '../products/llmstxt';
import type { AgentService } from '../products/agent';
import type { MonitorService } from '../products/monitors';
import { observabilityRoutes, type ObservabilityDeps } from './observability';
import { mcpRoutes } from './mcp';
import { packageVersion } from './openapi';
import type { ScrapeContext, Scraper } from '../scrape/types';
import type { SearchService } from '../products/search';
import type { ResultStore, TeamStore } from '../platform/store';
import type { NodeTokenAdmin, BrowserEngineStats } from '../browsers/hub';
import type { TeamAdmin, TeamLimits, UsageReports } from '../platform/teams';

export interface AppDeps {
  log: Log;
  keyring: Keyring;
  scraper: Scraper;
  results: ResultStore;
  connectedBrowsers(): number;
  storeKind: 'mongodb' | 'embedded';
  /** Crawl and batch jobs; their routes are left out without it. */
  jobs?: JobService;
  /** Reads crawl prompts; without it, the built-in rules do (no model). */
  readCrawlPrompt?: CrawlPromptReader;
  /** `/map`; its routes are left out without it. */
  mapper?: Mapper;
  /** `/v1/search` and `/v2/search`; left out without it. */
  search?: SearchService;
  /** `/v1/extract` and `/v2/extract`; left out without it. */
  extract?: ExtractService;
  /** `/v1/llmstxt`; left out without it. */
  llmsTxt?: LlmsTxtService;
  /** `/v2/agent` and `/v1/deep-research`; left out without it. */
  agent?: AgentService;
  /** `/v2/monitor`; left out without it. */
  monitors?: MonitorService;
  /** Donated browsers; their routes are left out without it. */
  pairing?: {
    service: PairingService;
    connectedIds(): ReadonlySet<string>;
    savePage?: (teamId: string, page: SavedPageRequest) => Promise<void>;
  };
  /** Rate limits, concurrency and the usage endpoints; left out without them. */
  teams?: { store: TeamStore; limits: TeamLimits; reports?: UsageReports };
  /** The admin API, mounted only when ADMIN_API_KEY is set. */
  admin?: {
    admin: TeamAdmin;
    adminApiKey: string;
    browsers?: () => BrowserEngineStats[];
    nodeTokens?: NodeTokenAdmin;
    pairing?: Pick<PairingService, 'revokeForTeam'>;
  };
  /**
   * PUBLIC_URL: the base of the absolute URLs responses carry (job `url`, `next`); without it,
   * the address each connection reached the server on.
   */
  publicUrl?: string | undefined;
  /** PARSE_MAX_FILE_BYTES: the largest document `POST /v2/parse` takes; 50 MiB without it. */
  parseMaxFileBytes?: number | undefined;
  /** Where `/v2/parse` makes uploads' formats (the document pool); without it, the scraper's own. */
  parseDerive?: ScrapeContext['derive'];
  /** Browser sessions (`/v2/browser`) and scrape interactions; left out without it. */
  browserSessions?: BrowserSessionService;
  /** Running browser sessions for their live view pages (`/live/:token`); left out without it. */
  liveSessions?: LiveSessionDirectory;
  /** Browser sessions' replays (`/v2/browser/:id/replay`); left out without it. */
  sessionReplays?: ReplayService;
  /** `GET /metrics` and `GET /ready`; without it /metrics is empty and /ready is never ready. */
  observability?: ObservabilityDeps;
  /** The operator console (`/console`); left out without it. */
  console?: ConsoleDeps;
}

/**
 * The HTTP API as a Koa app, built from its dependencies and never listening by itself:
 * main.ts serves it, tests drive `app.callback()` or serve it on an ephemeral port.
 */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  // Errors are rendered by errorHandler; Koa's own logging of them would only duplicate lines.
  app.silent = true;
  // Authenticated API routes check the key before reading the body, as Firecrawl does.
  const authorize = compose([
    authenticate({ keyring: deps.keyring }),
    ...(deps.teams === undefined ? [] : [limitRate({ limits: deps.teams.limits })]),
  ]);
  const api = compose([authorize, readJsonBody()]);
  const publicUrl = createPublicUrl(deps.publicUrl);
  const routers = [
    healthRoutes({
      connectedBrowsers: deps.connectedBrowsers,
      storeKind: deps.storeKind,
      workProblems: deps.observability?.readiness.workProblems,
    }),
    ...observabilityRoutes({
      observability: deps.observability,
      connectedBrowsers: deps.connectedBrowsers,
      log: deps.log,
    }),
    openApiRoutes({ publicUrl }),
    scrapeRoutes({ scraper: deps.scraper, results: deps.results, api }),
    v1ScrapeRoutes({ scraper: deps.scraper, results: deps.results, log: deps.log, api }),
    parseRoutes({
      scraper: deps.scraper,
      results: deps.results,
      log: deps.log,
      authorize,
      maxFileBytes: deps.parseMaxFileBytes,
      derive: deps.parseDerive,
      publicUrl,
    }),
    ...(deps.jobs === undefined
      ? []
      : [
          crawlRoutes({
            jobs: deps.jobs,
            api,
            readCrawlPrompt:
              deps.readCrawlPrompt ?? createCrawlPromptReader({ llm: undefined, log: deps.log }),
            publicUrl,
          }),
          batchRoutes({ jobs: deps.jobs, api, publicUrl }),
        ]),
    ...(deps.mapper === undefined ? [] : [mapRoutes({ mapper: deps.mapper, api })]),
    // MCP tools call the same services as the routes; only tool calls count against the rate limit.
    mcpRoutes({
      services: {
        log: deps.log,
        scraper: deps.scraper,
        jobs: deps.jobs,
        readCrawlPrompt: deps.readCrawlPrompt ?? createCrawlPromptReader({ llm: undefined, log: deps.log }),
        mapper: deps.mapper,
        search: deps.search,
        extract: deps.extract,
        limits: deps.teams?.limits,
      },
      authenticate: authenticate({ keyring: deps.keyring }),
      body: readJsonBody(),
      version: packageVersion(),
    }),
    ...(deps.search === undefined ? [] : [searchRoutes({ search: deps.search, api })]),
    ...(deps.extract === undefined ? [] : [extractRoutes({ extract: deps.extract, api })]),
    ...(deps.llmsTxt === undefined ? [] : [llmsTxtRoutes({ llmsTxt: deps.llmsTxt, api })]),
    ...(deps.agent === undefined
      ? []
      : [agentRoutes({ agent: deps.agent, api, publicUrl }), deepResearchRoutes({ agent: deps.agent, api })]),
    ...(deps.monitors === undefined
      ? []
      : [
          monitorRoutes({ monitors: deps.monitors, api, publicUrl }),
          notificationRoutes({ monitors: deps.monitors }),
        ]),
    ...(deps.pairing === undefined
      ? []
      : [
          browserRoutes({
            pairing: deps.pairing.service,
            api,
            body: readJsonBody(),
            pairBody: readJsonBody({ limitBytes: MAX_PAIR_BODY_BYTES }),
            connectedIds: deps.pairing.connectedIds,
            ...(deps.pairing.savePage === undefined ? {} : { savePage: deps.pairing.savePage }),
          }),
        ]),
    ...(deps.teams === undefined
      ? []
      : [
          usageRoutes({
            teams: deps.teams.store,
            limits: deps.teams.limits,
            reports: deps.teams.reports,
            api,
          }),
        ]),
    ...(deps.admin === undefined ? [] : [adminRoutes(deps.admin)]),
    ...(deps.browserSessions === undefined
      ? []
      : [browserSessionRoutes({ sessions: deps.browserSessions, api, publicUrl })]),
    ...(deps.liveSessions === undefined ? [] : [liveViewRoutes({ sessions: deps.liveSessions })]),
    ...(deps.sessionReplays === undefined ? [] : [replayRoutes({ replays: deps.sessionReplays, api })]),
    ...(deps.console === undefined
      ? []
      : [consoleRoutes({ keyring: deps.keyring, jobs: deps.jobs, console: deps.console })]),
  ];

  app.use(requestLog({ log: deps.log }));
  app.use(errorHandler({ log: deps.log }));
  app.use(cors());
  app.use(notFound());
  for (const router of routers) app.use(router.routes()).use(router.allowedMethods());
  return app;
}
