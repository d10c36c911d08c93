import type { RequestSchemaName, ResponseSchemaName } from './api-schemas';
import type { ApiOperation, OperationResponse as Response } from './api-operation';
import { parseOperations } from './parse-operations';
import { extractOperations } from './extract-operations';
import { llmsTxtOperations } from './llmstxt-operations';
import { monitorOperations } from './monitor-operations';
import { agentOperations } from './agent-operations';
import { browserSessionOperations, interactAliasOperations } from './browser-session-operations';
import { mcpOperations } from './mcp-operations';

export type { ApiOperation, MultipartBody } from './api-operation';

const error = (description: string): Response => ({ description, schema: 'ErrorEnvelope' });

/** What any authenticated route may answer besides its own results. */
const authErrors = {
  '401': error('Missing or unknown API key'),
  default: error("Any other failure, in Firecrawl's error envelope"),
};

/** What a body-taking route adds: its validation error. */
const bodyErrors = {
  '400': error('The body failed validation; `details` lists the zod issues'),
  ...authErrors,
};

/** Scrapes can fail for reasons outside the request: the target, the browser, the time limit. */
const scrapeErrors = {
  ...bodyErrors,
  '402': error("The team's credit allowance is spent"),
  '429': error("The team's rate or concurrency limit is reached; see Retry-After"),
  '403': error('The URL is refused by the URL policy (URL_BLOCKED)'),
  '404': error('lockdown or minAge found no cached copy (SCRAPE_LOCKDOWN_CACHE_MISS, SCRAPE_NO_CACHED_DATA)'),
  '408': error('The scrape ran out of time (SCRAPE_TIMEOUT)'),
  '500': error('The page could not be scraped; `code` says why (SCRAPE_SITE_ERROR, SCRAPE_ACTION_ERROR, …)'),
  '503': error('No browser can take the work right now; see Retry-After'),
};

function scrapeOperations(version: 'v1' | 'v2'): ApiOperation[] {
  return [
    {
      method: 'post',
      path: `/${version}/scrape`,
      summary: 'Scrape one page',
      tag: version,
      authenticated: true,
      body: version === 'v2' ? 'ScrapeRequestV2' : 'ScrapeRequestV1',
      responses: {
        '200': { description: 'The scraped document', schema: 'ScrapeResponse' },
        ...scrapeErrors,
      },
    },
    {
      method: 'get',
      path: `/${version}/scrape/{id}`,
      summary: 'A stored scrape result, by its scrapeId',
      tag: version,
      authenticated: true,
      responses: {
        '200': { description: 'The document as the scrape answered it', schema: 'ScrapeResponse' },
        '404': error('No such scrape, or it expired'),
        ...authErrors,
      },
    },
  ];
}

/** Status, cancel and errors, shared by crawls and batches on each prefix. */
function jobReadOperations(prefix: string, version: 'v1' | 'v2', what: string): ApiOperation[] {
  return [
    {
      method: 'get',
      path: `${prefix}/{id}`,
      summary: `Status of a ${what} and a page of its documents`,
      tag: version,
      authenticated: true,
      query: 'JobPageQuery',
      responses: {
        '200': { description: 'Status and documents; `next` links the following page', schema: 'JobStatus' },
        '400': error('`skip` or `limit` is not a valid number'),
        '404': error('No such job for this team'),
        ...authErrors,
      },
    },
    {
      method: 'delete',
      path: `${prefix}/{id}`,
      summary: `Cancel a ${what}`,
      tag: version,
      authenticated: true,
      responses: {
        '200': { description: 'Cancelled', schema: 'JobCancelled' },
        '404': { description: 'No such job for this team (no `success` key)', schema: 'CancelError' },
        ...authErrors,
      },
    },
    {
      method: 'get',
      path: `${prefix}/{id}/errors`,
      summary: `Pages of a ${what} that failed, and URLs robots.txt kept out`,
      tag: version,
      authenticated: true,
      responses: {
        '200': { description: 'Failed pages and robots-blocked URLs', schema: 'JobErrors' },
        '404': error('No such job for this team'),
        ...authErrors,
      },
    },
    ...(version === 'v1' ? [v1ErrorsByDelete(prefix, what)] : []),
  ];
}

/** What the v1 JS client sends for its errors methods; the same read as the GET. */
function v1ErrorsByDelete(prefix: string, what: string): ApiOperation {
  return {
    method: 'delete',
    path: `${prefix}/{id}/errors`,
    summary: `The ${what}'s errors, as GET (the v1 JS client sends DELETE; nothing is deleted)`,
    tag: 'v1',
    authenticated: true,
    responses: {
      '200': { description: 'Failed pages and robots-blocked URLs', schema: 'JobErrors' },
      '403': error("Another team's job"),
      '404': error('No such job'),
      ...authErrors,
    },
  };
}

function jobOperations(version: 'v1' | 'v2'): ApiOperation[] {
  const ongoing = (path: string): ApiOperation => ({
    method: 'get',
    path,
    summary: "The team's running crawls",
    tag: version,
    authenticated: true,
    responses: { '200': { description: 'Running crawls', schema: 'OngoingCrawls' }, ...authErrors },
  });
  const start = (path: string, summary: string, body: RequestSchemaName): ApiOperation => ({
    method: 'post',
    path,
    summary,
    tag: version,
    authenticated: true,
    body,
    responses: {
      '200': { description: 'The job was created; poll `url` for its status', schema: 'JobStarted' },
      '402': error("The team's credits do not cover the job"),
      '403': error('The crawl URL or the webhook URL is refused by the URL policy (URL_BLOCKED)'),
      '429': error("The team's rate limit is reached; see Retry-After"),
      '409': error('The x-idempotency-key was used before'),
      ...bodyErrors,
    },
  });
  const V = version === 'v2' ? 'V2' : 'V1';
  return [
    ongoing(`/${version}/crawl/ongoing`),
    ongoing(`/${version}/crawl/active`),
    start(`/${version}/crawl`, 'Start a crawl', `CrawlRequest${V}`),
    ...jobReadOperations(`/${version}/crawl`, version, 'crawl'),
    start(`/${version}/batch/scrape`, 'Start a batch scrape', `BatchScrapeRequest${V}`),
    ...jobReadOperations(`/${version}/batch/scrape`, version, 'batch scrape'),
  ];
}

const paramsPreviewOperation: ApiOperation = {
  method: 'post',
  path: '/v2/crawl/params-preview',
  summary: 'The crawl options a natural-language prompt asks for (model or built-in rules)',
  tag: 'v2',
  authenticated: true,
  body: 'CrawlParamsPreviewRequest',
  responses: {
    '200': {
      description: 'The URL and the options read from the prompt',
      schema: 'CrawlParamsPreviewResponse',
    },
    ...bodyErrors,
  },
};

function mapOperation(version: 'v1' | 'v2'): ApiOperation {
  const V = version === 'v2' ? 'V2' : 'V1';
  return {
    method: 'post',
    path: `/${version}/map`,
    summary: "A site's URLs from its sitemaps, its start page and the map index",
    tag: version,
    authenticated: true,
    body: `MapRequest${V}`,
    responses: {
      '200': {
        description: 'The URLs, most relevant first when `search` is given',
        schema: `MapResponse${V}`,
      },
      '402': error("The team's credits are spent"),
      '403': error('The URL is refused by the URL policy (URL_BLOCKED)'),
      '408': error('The map ran past its `timeout` (MAP_TIMEOUT)'),
      ...bodyErrors,
    },
  };
}

function searchOperation(version: 'v1' | 'v2'): ApiOperation {
  return {
    method: 'post',
    path: `/${version}/search`,
    summary:
      version === 'v2'
        ? 'Search the web or the local index; results grouped by source, optionally scraped'
        : 'Search; the web results as an array, optionally scraped',
    tag: version,
    authenticated: true,
    body: version === 'v2' ? 'SearchRequestV2' : 'SearchRequestV1',
    responses: {
      '200': {
        description: 'The results; a provider that failed gives none and a warning',
        schema: version === 'v2' ? 'SearchResponseV2' : 'SearchResponseV1',
      },
      '408': error('The search ran past its timeout (SCRAPE_TIMEOUT)'),
      ...bodyErrors,
    },
  };
}

function usageOperations(version: 'v1' | 'v2'): ApiOperation[] {
  const V = version === 'v2' ? 'V2' : 'V1';
  const read = (path: string, summary: string, schema: ResponseSchemaName): ApiOperation => ({
    method: 'get',
    path: `/${version}${path}`,
    summary,
    tag: version,
    authenticated: true,
    responses: { '200': { description: summary, schema }, ...authErrors },
  });
  return [
    read('/team/credit-usage', "The team's remaining credits", `CreditUsage${V}`),
    read('/team/token-usage', "The team's remaining tokens (Tabhive bills none)", `TokenUsage${V}`),
    read('/concurrency-check', "The team's running work and its concurrency limit", 'ConcurrencyCheck'),
    {
      ...read(
        '/team/credit-usage/historical',
        'Credits used by month (UTC), by key with byApiKey',
        'CreditUsageHistorical',
      ),
      query: 'UsageHistoryQuery',
    },
    {
      ...read(
        '/team/token-usage/historical',
        'Model tokens used by month (UTC), by key with byApiKey',
        'TokenUsageHistorical',
      ),
      query: 'UsageHistoryQuery',
    },
    read(
      '/team/queue-status',
      "The team's queued and running pages, its limit and latest success",
      'QueueStatus',
    ),
  ];
}

const serviceOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/',
    summary: 'Liveness, as plain text (as Firecrawl)',
    tag: 'service',
    authenticated: false,
    responses: { '200': { description: 'A line of text', text: true } },
  },
  {
    method: 'get',
    path: '/health',
    summary: 'Liveness with the connected browsers and the store in use',
    tag: 'service',
    authenticated: false,
    responses: { '200': { description: 'The server is up', schema: 'HealthResponse' } },
  },
  {
    method: 'get',
    path: '/ready',
    summary: 'Readiness: the store answers, and a browser is there if this instance serves browser work',
    tag: 'service',
    authenticated: false,
    responses: {
      '200': { description: 'Ready to serve', schema: 'ReadyResponse' },
      '503': { description: 'Not ready; `reasons` says why', schema: 'ReadyResponse' },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of this instance (text format 0.0.4); behind METRICS_TOKEN when it is set',
    tag: 'service',
    authenticated: false,
    responses: {
      '200': { description: 'The metrics in Prometheus text format', text: true },
      '401': error('METRICS_TOKEN is set and the request does not carry it as a bearer token'),
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tag: 'service',
    authenticated: false,
    responses: { '200': { description: 'The OpenAPI 3.1 document', schema: 'OpenApiDocument' } },
  },
];

/**
 * Every HTTP route Tabhive serves, in the order the document lists them. A unit test checks this
 * table against the routers, so a route cannot be added without describing it here.
 */
export const apiOperations: readonly ApiOperation[] = [
  ...serviceOperations,
  ...scrapeOperations('v2'),
  ...parseOperations,
  ...jobOperations('v2'),
  paramsPreviewOperation,
  mapOperation('v2'),
  searchOperation('v2'),
  ...extractOperations('v2'),
  ...usageOperations('v2'),
  ...monitorOperations,
  ...browserSessionOperations,
  ...interactAliasOperations,
  ...agentOperations,
  ...scrapeOperations('v1'),
  ...jobOperations('v1'),
  mapOperation('v1'),
  searchOperation('v1'),
  ...extractOperations('v1'),
  ...llmsTxtOperations,
  ...usageOperations('v1'),
  ...mcpOperations,
];
