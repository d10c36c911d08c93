import type { ApiOperation } from './api-operation';

const error = (description: string) => ({ description, schema: 'ErrorEnvelope' as const });

/** `POST /v{1,2}/extract` and `GET /v{1,2}/extract/{id}`: extract jobs (server/api/routes/extract-routes.ts). */
export function extractOperations(version: 'v1' | 'v2'): ApiOperation[] {
  return [
    {
      method: 'post',
      path: `/${version}/extract`,
      summary:
        'Start an extract job: structured data from pages (a `/*` URL reads the site), merged into one answer',
      tag: version,
      authenticated: true,
      body: version === 'v2' ? 'ExtractRequestV2' : 'ExtractRequestV1',
      responses: {
        '200': { description: 'The job was accepted; poll its status by id', schema: 'ExtractStarted' },
        '400': error('The body failed validation, or a URL is invalid (without ignoreInvalidURLs)'),
        '401': error('Missing or unknown API key'),
        '402': error("The team's credits are spent"),
        '403': error('A URL or the webhook URL is refused by the URL policy (URL_BLOCKED)'),
        '429': error("The team's rate limit is reached; see Retry-After"),
        default: error("Any other failure, in Firecrawl's error envelope"),
      },
    },
    {
      method: 'get',
      path: `/${version}/extract/{id}`,
      summary: "An extract job's status, and its data once completed",
      tag: version,
      authenticated: true,
      responses: {
        '200': {
          description: 'The job: processing, completed (with data) or failed',
          schema: 'ExtractStatus',
        },
        '404': error("No such job, another team's, or expired"),
        '401': error('Missing or unknown API key'),
        default: error("Any other failure, in Firecrawl's error envelope"),
      },
    },
  ];
}
