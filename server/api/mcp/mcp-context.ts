import type { CrawlPromptReader } from '../../products/crawl-prompt/create-crawl-prompt-reader';
import type { ExtractService } from '../../products/extract/create-extract-service';
import type { JobService } from '../../products/jobs/create-job-service';
import type { Log } from '../../platform/log/log';
import type { Mapper } from '../../products/map/create-mapper';
import type { Scraper } from '../../scrape/types/scraper';
import type { SearchService } from '../../products/search/create-search-service';
import type { TeamLimits } from '../../platform/teams/team-limits';

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
