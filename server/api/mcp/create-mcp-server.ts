import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerCrawlTools } from './crawl-tools';
import { registerExtractTool } from './extract-tool';
import { registerMapTool } from './map-tool';
import type { McpCaller, McpServices } from './mcp-context';
import type { McpSdk } from './load-mcp-sdk';
import { registerScrapeTools } from './scrape-tools';
import { registerSearchTool } from './search-tool';

/**
 * Tabhive as an MCP server for one caller: the tools of Firecrawl's own MCP server, under the same
 * names and with the same arguments, each calling the services in this process for the caller's
 * team. A new one serves each HTTP request (stateless Streamable HTTP), so it holds no session.
 */
export function createMcpServer({
  sdk,
  services,
  caller,
  version,
}: {
  sdk: McpSdk;
  services: McpServices;
  caller: McpCaller;
  version: string;
}): McpServer {
  const server = new sdk.McpServer(
    { name: 'tabhive', version },
    {
      instructions:
        'Tabhive scrapes, crawls, maps and searches the web in real browsers; its tools are named and ' +
        "used as Firecrawl's (firecrawl_scrape, firecrawl_crawl, …).",
    },
  );
  const call = { services, caller };
  registerScrapeTools(server, call);
  registerCrawlTools(server, call);
  registerMapTool(server, call);
  registerSearchTool(server, call);
  registerExtractTool(server, call);
  return server;
}
