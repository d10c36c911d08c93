import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UrlInput } from '../../../shared/api/url-input';
import { BatchScrapeRequestV2 } from '../../../shared/api/v2/batch-scrape-request';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { toIssueDetails } from '../../../shared/api/zod-issues';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import { optional, type JobSpec } from '../../products/jobs';
import type { McpCaller, McpServices } from './mcp-context';
import { readJobStatus } from './read-job-status';
import { runTool } from './run-tool';
import { scrapeArgumentsShape, scrapeOptionsBody } from './scrape-arguments';

const ScrapeToolArguments = z.looseObject({
  url: z.string().describe('The page to scrape'),
  ...scrapeArgumentsShape,
});

const BatchScrapeToolArguments = z.object({
  urls: z.array(z.string()).describe('The pages to scrape'),
  options: z.looseObject(scrapeArgumentsShape).optional().describe('Scrape options every page gets'),
});

const JobId = z.object({ id: z.string().describe('The id the starting tool answered') });

/** Every URL must be one; the first that is not refuses the batch with the API's 400 (docs/wire-contract.md §5.1). */
function checkedUrls(urls: readonly string[]): string[] {
  return urls.map((raw, index) => {
    const parsed = UrlInput.safeParse(raw);
    if (parsed.success) return parsed.data.url;
    throw errors.badRequest(
      toIssueDetails(parsed.error).map((issue) => ({ ...issue, path: ['urls', index, ...issue.path] })),
    );
  });
}

/**
 * `firecrawl_scrape` (one page, as `POST /v2/scrape`), `firecrawl_batch_scrape` (a batch job, as
 * `POST /v2/batch/scrape`) and `firecrawl_check_batch_status` (the job with all its pages).
 */
export function registerScrapeTools(server: McpServer, call: { services: McpServices; caller: McpCaller }) {
  const { services, caller } = call;

  server.registerTool(
    'firecrawl_scrape',
    {
      title: 'Scrape one page',
      description:
        'Scrape one URL in a real browser and return its content: markdown by default, or HTML, links, ' +
        'a screenshot, or JSON matching a schema (formats: ["json"] with jsonOptions). ' +
        'maxAge: 0 forces a live fetch instead of a cached copy.',
      inputSchema: ScrapeToolArguments,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    runTool({ services, caller }, { name: 'firecrawl_scrape', startsWork: true }, async (args) => {
      // Discovery settings of Firecrawl's hosted tool catalogue, which agents carry over by habit.
      const { toolDetail: _toolDetail, domainTools: _domainTools, ...options } = args;
      const request = parseBody(ScrapeRequestV2, scrapeOptionsBody(options));
      return services.scraper.scrape(request, { teamId: caller.teamId, admission: 'api' });
    }),
  );

  const jobs = services.jobs;
  if (jobs === undefined) return;

  server.registerTool(
    'firecrawl_batch_scrape',
    {
      title: 'Scrape many pages',
      description:
        'Start scraping several URLs with the same options as one batch job. Answers the job id at ' +
        'once; read the pages with firecrawl_check_batch_status.',
      inputSchema: BatchScrapeToolArguments,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    runTool({ services, caller }, { name: 'firecrawl_batch_scrape', startsWork: true }, async (args) => {
      // The body `POST /v2/batch/scrape` takes, checked by its schema; every URL must be valid.
      const {
        urls,
        zeroDataRetention,
        ignoreInvalidURLs: _ignoreInvalid,
        maxConcurrency,
        webhook: _webhook,
        appendToId: _appendToId,
        origin: _origin,
        integration: _integration,
        ...scrapeOptions
      } = parseBody(BatchScrapeRequestV2, { ...scrapeOptionsBody(args.options ?? {}), urls: args.urls });
      const valid = checkedUrls(urls);
      const spec: JobSpec = {
        version: 'v2',
        scrapeOptions,
        zeroDataRetention: zeroDataRetention ?? false,
        ...optional({ maxConcurrency }),
        options: {},
      };
      const id = await jobs.startBatch(caller.teamId, spec, valid);
      return {
        success: true,
        id,
        message: `Batch scrape of ${valid.length} URL(s) started; check it with firecrawl_check_batch_status and this id.`,
      };
    }),
  );

  server.registerTool(
    'firecrawl_check_batch_status',
    {
      title: 'Batch scrape status',
      description: "A batch scrape's state and the pages scraped so far.",
      inputSchema: JobId,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool({ services, caller }, { name: 'firecrawl_check_batch_status', startsWork: false }, (args) =>
      readJobStatus(jobs, caller.teamId, args.id),
    ),
  );
}
