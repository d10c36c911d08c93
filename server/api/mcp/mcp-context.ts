import type { CrawlPromptReader } from '../../products/crawl-prompt';
import type { ExtractService } from '../../products/extract';
import type { JobService } from '../../products/jobs';
import type { Log } from '../../platform/log';
import type { Mapper } from '../../products/map';
import type { Scraper } from '../../scrape/types';
import type { SearchService } from '../../products/search';
import type { TeamLimits } from '../../platform/teams';

/**
 * The services the MCP tools call, the very ones the HTTP routes call (app.ts): the scraper books
 * credits and holds a team slot as `POST /v2/scrape` does, and jobs, maps, searches and extracts
 * book their own. A tool whose service is missing is not offered, as its route is not served.
 */
export interface McpServices {
  log: Log;
  scraper: Scraper;
  jobs?: JobService | undefined;
  readCrawlPrompt: CrawlPromptReader;
  mapper?: Mapper | undefined;
  search?: SearchService | undefined;
  extract?: ExtractService | undefined;
  /** The team's per-minute request limit; without it, none. */
  limits?: TeamLimits | undefined;
}

/** One MCP request's caller: the team its API key belongs to. */
export interface McpCaller {
  teamId: string;
}
