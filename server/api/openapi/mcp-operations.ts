import type { ApiOperation } from './api-operation';

const refused = (description: string) => ({ description, schema: 'McpError' as const });

/** `POST /mcp` (server/api/mcp/mcp-routes.ts): the Model Context Protocol over Streamable HTTP. */
export const mcpOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/mcp',
    summary:
      'MCP (Model Context Protocol) over Streamable HTTP, stateless, with the tools of Firecrawl’s MCP server ' +
      '(firecrawl_scrape, firecrawl_crawl, …). Clients must accept application/json and text/event-stream; ' +
      'a notification is answered 202 without a body.',
    tag: 'service',
    authenticated: true,
    body: 'McpMessage',
    responses: {
      '200': { description: 'The JSON-RPC response to the request', schema: 'McpResponse' },
      '400': refused('Not a JSON-RPC message, or malformed JSON'),
      '401': { description: 'Missing or unknown API key', schema: 'ErrorEnvelope' },
      '406': refused('The Accept header lacks application/json or text/event-stream'),
      '413': refused('The body is larger than the API takes'),
      '415': refused('The body is not JSON'),
      default: refused("Any other failure, in Firecrawl's error envelope or as a JSON-RPC error"),
    },
  },
];
