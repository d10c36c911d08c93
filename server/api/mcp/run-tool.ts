import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpCaller, McpServices } from './mcp-context';
import { toolError, toolResult } from './tool-result';

/**
 * A tool's callback: the work's answer as a tool result, or its failure as a tool error. A tool
 * that starts work counts against the team's per-minute request limit as the POST it stands for
 * would; the MCP protocol's own requests (initialize, tools/list) and status reads do not, as job
 * status GETs do not.
 */
export function runTool<A>(
  { services, caller }: { services: McpServices; caller: McpCaller },
  { name, startsWork }: { name: string; startsWork: boolean },
  work: (args: A, signal: AbortSignal) => Promise<unknown>,
): (args: A, extra: { signal: AbortSignal }) => Promise<CallToolResult> {
  return async (args, extra) => {
    try {
      if (startsWork) await services.limits?.countRequest(caller.teamId);
      return toolResult(await work(args, extra.signal));
    } catch (err) {
      return toolError(err, { log: services.log, tool: name });
    }
  };
}
