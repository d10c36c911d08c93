/** The MCP server at /mcp: Firecrawl's tools over the same products the HTTP routes use. */
export { mcpRoutes } from './mcp-routes';
export { McpError, McpMessage, McpResponse } from './mcp-wire-schemas';
