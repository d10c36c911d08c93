import type { ApiOperation } from './api-operation';

const error = (description: string) => ({ description, schema: 'ErrorEnvelope' as const });

/** `POST /v1/llmstxt` and `GET /v1/llmstxt/{id}` (server/api/routes/llmstxt-routes.ts). */
export const llmsTxtOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v1/llmstxt',
    summary: "Start writing a site's llms.txt (and llms-full.txt) from its map and its pages",
    tag: 'v1',
    authenticated: true,
    body: 'LlmsTxtRequest',
    responses: {
      '200': { description: 'The job was accepted; poll its status by id', schema: 'LlmsTxtStarted' },
      '400': error('The body failed validation'),
      '401': error('Missing or unknown API key'),
      '402': error("The team's credits are spent"),
      '403': error('The URL is refused by the URL policy (URL_BLOCKED)'),
      '429': error("The team's rate limit is reached; see Retry-After"),
      default: error("Any other failure, in Firecrawl's error envelope"),
    },
  },
  {
    method: 'get',
    path: '/v1/llmstxt/{id}',
    summary: "An llms.txt job's status, and the files once completed",
    tag: 'v1',
    authenticated: true,
    responses: {
      '200': { description: 'The job: processing, completed (with data) or failed', schema: 'LlmsTxtStatus' },
      '404': error("No such job, another team's, or expired"),
      '401': error('Missing or unknown API key'),
      default: error("Any other failure, in Firecrawl's error envelope"),
    },
  },
];
