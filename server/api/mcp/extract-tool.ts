import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ExtractRequestV2 } from '../../../shared/api/v2/extract-request';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import type { McpCaller, McpServices } from './mcp-context';
import { runTool } from './run-tool';
import { withoutEmptyValues } from './scrape-arguments';
import { waitForJob } from './wait-for-job';

/** How long `firecrawl_extract` waits for its job before it answers it still processing. */
export const EXTRACT_WAIT_MS = 50_000;

const ExtractToolArguments = z.looseObject({
  urls: z.array(z.string()).describe('Pages to read; https://site/* reads the pages of a site'),
  prompt: z.string().optional().describe('What to extract, in words'),
  schema: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema of the data to answer'),
  allowExternalLinks: z.boolean().optional(),
  enableWebSearch: z.boolean().optional(),
  includeSubdomains: z.boolean().optional(),
});

/**
 * `firecrawl_extract`: starts an extract job (as `POST /v2/extract`) and answers its status body
 * (`GET /v2/extract/:id`) once it has ended, or after EXTRACT_WAIT_MS with its id to read later.
 * Firecrawl's MCP server 3.x lists this tool no more (it points to scrape with the json format) and
 * answers it with an error; earlier versions ran it as here, and agents still call it.
 */
export function registerExtractTool(server: McpServer, call: { services: McpServices; caller: McpCaller }) {
  const { services, caller } = call;
  const extract = services.extract;
  if (extract === undefined) return;
  server.registerTool(
    'firecrawl_extract',
    {
      title: 'Extract structured data',
      description:
        'Extract structured data from one or more pages by a prompt and/or a JSON Schema, merged into ' +
        `one answer. Waits up to ${EXTRACT_WAIT_MS / 1000} s for the job. For one known page, ` +
        'firecrawl_scrape with formats ["json"] does the same.',
      inputSchema: ExtractToolArguments,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    runTool({ services, caller }, { name: 'firecrawl_extract', startsWork: true }, async (args, signal) => {
      const request = parseBody(ExtractRequestV2, withoutEmptyValues(args));
      const { id } = await extract.start(caller.teamId, request, 'v2');
      const status = await waitForJob({
        read: async () => {
          const body = await extract.status(caller.teamId, id);
          if (body === undefined) throw errors.jobNotFound();
          return body;
        },
        ended: (body) => body.status !== 'processing',
        waitMs: EXTRACT_WAIT_MS,
        signal,
      });
      return { id, ...status };
    }),
  );
}
