/**
 * The HTTP routes: thin handlers that parse a request, call a product or the scraper, and shape
 * Firecrawl's v1 or v2 answer.
 */
export { adminRoutes } from './admin-routes';
export { agentRoutes } from './agent-routes';
export { batchRoutes } from './batch-routes';
export { MAX_PAIR_BODY_BYTES, browserRoutes } from './browser-routes';
export { browserSessionRoutes } from './browser-session-routes';
export { crawlRoutes } from './crawl-routes';
export { deepResearchRoutes } from './deep-research-routes';
export { extractRoutes } from './extract-routes';
export { healthRoutes } from './health-routes';
export { llmsTxtRoutes } from './llmstxt-routes';
export { mapRoutes } from './map-routes';
export { monitorRoutes } from './monitor-routes';
export { notificationRoutes } from './notification-routes';
export { openApiRoutes } from './openapi-routes';
export { parseRoutes } from './parse-routes';
export { replayRoutes } from './replay-routes';
export { scrapeRoutes } from './scrape-routes';
export { searchRoutes } from './search-routes';
export { usageRoutes } from './usage-routes';
export { v1ScrapeRoutes } from './v1-scrape-routes';
