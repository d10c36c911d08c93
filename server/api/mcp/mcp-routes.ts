import Router from '@koa/router';
import type { Middleware } from 'koa';
import { teamOf } from '../http';
import { createMcpServer } from './create-mcp-server';
import { loadMcpSdk } from './load-mcp-sdk';
import type { McpServices } from './mcp-context';

/** Where MCP is served. */
export const MCP_PATH = '/mcp';

/**
 * MCP over Streamable HTTP at `POST /mcp`, behind the API key as every API route (`authenticate`
 * answers Firecrawl's 401s) and with the API's body reading and size limit (`body`). Stateless: each
 * request gets its own server and transport, so any instance behind a load balancer answers any
 * request, and nothing is kept between them. Answers are JSON rather than an event stream (no tool
 * sends progress). GET (a server-to-client stream) and DELETE (ending a session) have no meaning
 * without sessions: the router answers them 405, as the transport specification allows.
 */
export function mcpRoutes({
  services,
  authenticate,
  body,
  version,
}: {
  services: McpServices;
  authenticate: Middleware;
  body: Middleware;
  version: string;
}): Router {
  const router = new Router();
  router.post(MCP_PATH, authenticate, body, async (ctx) => {
    const sdk = await loadMcpSdk();
    const server = createMcpServer({ sdk, services, caller: { teamId: teamOf(ctx).id }, version });
    const transport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The transport writes the answer to the Node response itself.
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  });
  return router;
}
