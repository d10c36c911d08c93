import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MapRequestV2 } from '../../../shared/api/v2/map-request';
import { parseBody } from '../../platform/input';
import { mapOptionsV2 } from '../../products/map';
import type { McpCaller, McpServices } from './mcp-context';
import { runTool } from './run-tool';
import { withoutEmptyValues } from './scrape-arguments';

const MapToolArguments = z.looseObject({
  url: z.string().describe('The site to map'),
  search: z.string().optional().describe('Rank and narrow the URLs by these words'),
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  includeSubdomains: z.boolean().optional(),
  limit: z.number().optional(),
  ignoreQueryParameters: z.boolean().optional(),
});

/** `firecrawl_map`: a site's URLs, as `POST /v2/map` answers them (`{ links: [{ url, title? }] }`). */
export function registerMapTool(server: McpServer, call: { services: McpServices; caller: McpCaller }) {
  const { services, caller } = call;
  const mapper = services.mapper;
  if (mapper === undefined) return;
  server.registerTool(
    'firecrawl_map',
    {
      title: 'Map a site',
      description:
        "List a website's URLs (from its sitemap, its links and pages seen before) without fetching " +
        'their content. search narrows and ranks them.',
      inputSchema: MapToolArguments,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    runTool({ services, caller }, { name: 'firecrawl_map', startsWork: true }, async (args) => {
      const request = parseBody(MapRequestV2, withoutEmptyValues(args));
      return { success: true, links: await mapper.map(mapOptionsV2(request), caller.teamId) };
    }),
  );
}
