import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { parseCrawlRequestV2 } from '../../products/crawl-prompt';
import { type JobService, crawlSpecFromV2 } from '../../products/jobs';
import type { McpCaller, McpServices } from './mcp-context';
import { jobEnded, readJobStatus } from './read-job-status';
import { runTool } from './run-tool';
import { scrapeArgumentsShape, scrapeOptionsBody, withoutEmptyValues } from './scrape-arguments';
import { waitForJob } from './wait-for-job';

/**
 * How long `firecrawl_crawl` waits for its crawl before it answers. Firecrawl's MCP server waits
 * for the end however long that takes; an MCP request held for many minutes is cut by proxies and
 * clients (most time out a tool call after a minute or so), so a longer crawl comes back running,
 * with its id and the pages so far, for `firecrawl_check_crawl_status`.
 */
export const CRAWL_WAIT_MS = 50_000;

const CrawlToolArguments = z.looseObject({
  url: z.string().describe('Where the crawl starts'),
  prompt: z.string().optional().describe('What to crawl, in words; read into crawl options'),
  excludePaths: z.array(z.string()).optional(),
  includePaths: z.array(z.string()).optional(),
  maxDiscoveryDepth: z.number().optional(),
  sitemap: z.enum(['skip', 'include', 'only']).optional(),
  limit: z.number().optional().describe('Most pages to crawl'),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  crawlEntireDomain: z.boolean().optional(),
  delay: z.number().optional().describe('Seconds between pages'),
  maxConcurrency: z.number().optional(),
  webhook: z.string().optional(),
  webhookHeaders: z.record(z.string(), z.string()).optional(),
  deduplicateSimilarURLs: z.boolean().optional(),
  ignoreQueryParameters: z.boolean().optional(),
  scrapeOptions: z.looseObject(scrapeArgumentsShape).optional(),
});
type CrawlToolArguments = z.infer<typeof CrawlToolArguments>;

/** The tool's arguments as a `POST /v2/crawl` body: the webhook with its headers, scrape options in API form. */
function crawlBody({ webhook, webhookHeaders, scrapeOptions, ...rest }: CrawlToolArguments) {
  const headers = webhookHeaders === undefined ? {} : webhookHeaders;
  return withoutEmptyValues({
    ...rest,
    webhook: webhook === undefined || Object.keys(headers).length === 0 ? webhook : { url: webhook, headers },
    scrapeOptions: scrapeOptions === undefined ? undefined : scrapeOptionsBody(scrapeOptions),
  });
}

const waitForCrawl = (jobs: JobService, teamId: string, id: string, signal: AbortSignal) =>
  waitForJob({
    read: () => readJobStatus(jobs, teamId, id),
    ended: jobEnded,
    waitMs: CRAWL_WAIT_MS,
    signal,
  });

/** `firecrawl_crawl` (as `POST /v2/crawl`, then its status) and `firecrawl_check_crawl_status`. */
export function registerCrawlTools(server: McpServer, call: { services: McpServices; caller: McpCaller }) {
  const { services, caller } = call;
  const jobs = services.jobs;
  if (jobs === undefined) return;

  server.registerTool(
    'firecrawl_crawl',
    {
      title: 'Crawl a site',
      description:
        'Crawl a website from a URL, following its links within the given scope (paths, depth, page ' +
        'limit), and return the pages. Waits up to ' +
        `${CRAWL_WAIT_MS / 1000} s: a longer crawl comes back with status "scraping" and its id, to read ` +
        'later with firecrawl_check_crawl_status. Keep limit small when a few pages will do.',
      inputSchema: CrawlToolArguments,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    runTool({ services, caller }, { name: 'firecrawl_crawl', startsWork: true }, async (args, signal) => {
      const { request } = await parseCrawlRequestV2(crawlBody(args), services.readCrawlPrompt);
      const id = await jobs.startCrawl(caller.teamId, crawlSpecFromV2(request));
      return waitForCrawl(jobs, caller.teamId, id, signal);
    }),
  );

  server.registerTool(
    'firecrawl_check_crawl_status',
    {
      title: 'Crawl status',
      description: "A crawl's state and the pages crawled so far, by the id firecrawl_crawl answered.",
      inputSchema: z.object({ id: z.string() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool({ services, caller }, { name: 'firecrawl_check_crawl_status', startsWork: false }, (args) =>
      readJobStatus(jobs, caller.teamId, args.id),
    ),
  );
}
