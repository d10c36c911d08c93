import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SearchRequestV2 } from '../../../shared/api/v2/search-request';
import { toIssueDetails } from '../../../shared/api/zod-issues';
import { errors } from '../../platform/errors';
import type { McpCaller, McpServices } from './mcp-context';
import { runTool } from './run-tool';
import { scrapeArgumentsShape, scrapeOptionsBody, withoutEmptyValues } from './scrape-arguments';

const Source = z.union([z.string(), z.looseObject({ type: z.string() })]);

const SearchToolArguments = z.looseObject({
  query: z.string().describe('What to search for; site:, inurl:, intitle: and -term operators work'),
  limit: z.number().int().optional(),
  tbs: z.string().optional().describe('Time filter, e.g. qdr:w for the past week'),
  filter: z.string().optional(),
  location: z.string().optional(),
  sources: z.array(Source).optional().describe('web (default), news, images'),
  categories: z.array(z.string()).optional().describe('github, research, pdf'),
  includeDomains: z.array(z.string()).optional(),
  excludeDomains: z.array(z.string()).optional(),
  scrapeOptions: z.looseObject(scrapeArgumentsShape).optional().describe('Scrape each web result too'),
  // Settings of Firecrawl's hosted tool catalogue (Alexandria), which Tabhive does not have.
  highlights: z.boolean().optional(),
  toolDetail: z.string().optional(),
  domainTools: z.boolean().optional(),
  enterprise: z.array(z.string()).optional(),
});
type SearchToolArguments = z.infer<typeof SearchToolArguments>;

/** Sources of Firecrawl's hosted tool catalogue; there is nothing to search for them here. */
const CATALOGUE_SOURCES = new Set(['alexandria', 'exchange']);
const sourceName = (source: z.infer<typeof Source>) => (typeof source === 'string' ? source : source.type);

/**
 * The tool's arguments as a `POST /v2/search` body. The hosted catalogue's settings are left out
 * (with a warning when the agent asked for something of it), as an agent configured for Firecrawl
 * sends them by habit.
 */
function searchBody({
  highlights: _highlights,
  toolDetail: _toolDetail,
  domainTools,
  enterprise: _enterprise,
  sources,
  scrapeOptions,
  ...rest
}: SearchToolArguments) {
  const kept = sources?.filter((source) => !CATALOGUE_SOURCES.has(sourceName(source)));
  const dropped = (sources?.length ?? 0) - (kept?.length ?? 0);
  const warning =
    dropped > 0 || domainTools === true
      ? 'Tabhive has no tool catalogue (Alexandria): those sources and domainTools were ignored.'
      : undefined;
  const body = withoutEmptyValues({
    ...rest,
    sources: kept,
    scrapeOptions: scrapeOptions === undefined ? undefined : scrapeOptionsBody(scrapeOptions),
  });
  return { body, warning };
}

/** `firecrawl_search`: `POST /v2/search`'s answer, results grouped by source. */
export function registerSearchTool(server: McpServer, call: { services: McpServices; caller: McpCaller }) {
  const { services, caller } = call;
  const search = services.search;
  if (search === undefined) return;
  server.registerTool(
    'firecrawl_search',
    {
      title: 'Search the web',
      description:
        'Search the web (or news, images) and return ranked results with title, URL and description; ' +
        'scrapeOptions also scrapes each web result. Use firecrawl_scrape on a result for its full content.',
      inputSchema: SearchToolArguments,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    runTool({ services, caller }, { name: 'firecrawl_search', startsWork: true }, async (args) => {
      const { body, warning } = searchBody(args);
      const parsed = SearchRequestV2.safeParse(body);
      if (!parsed.success) throw errors.invalidSearchBody(toIssueDetails(parsed.error), body);
      const answer = await search.search(parsed.data, caller.teamId);
      const warnings = [...answer.warnings, ...(warning === undefined ? [] : [warning])];
      return {
        success: true,
        data: answer.data,
        creditsUsed: answer.creditsUsed,
        ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
      };
    }),
  );
}
