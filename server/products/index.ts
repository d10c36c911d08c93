/**
 * The products wing: what the API offers on top of a scrape (crawl and batch jobs, map, search,
 * extract, agent, llms.txt, monitors, parse, browser sessions and their live view).
 */
export { createAgentService } from './agent';
export {
  createBrowserSessionService,
  createChallengeViews,
  joinLiveSessionDirectories,
  createReplayRecorder,
  createReplayService,
  createSessionLeases,
} from './browser-sessions';
export { createCrawlPromptReader } from './crawl-prompt';
export { createExtractService } from './extract';
export { createJobRunner, createJobService, createStatusSocket, isStatusSocketPath } from './jobs';
export type { JobSpec } from './jobs';
export { createCdpRelay, createLiveViewSocket, isCdpRelayPath, isLiveViewSocketPath } from './live-view';
export { createLlmsTxtService } from './llmstxt';
export { createMapCharging, createMapIndexRecorder, createMapper } from './map';
export { createMonitors } from './monitors';
export { addPageToSearchIndex, createSearchProvider, createSearchService, searchIndexSink } from './search';
