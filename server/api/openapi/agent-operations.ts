import type { ApiOperation } from './api-operation';

const error = (description: string) => ({ description, schema: 'ErrorEnvelope' as const });

const common = {
  '401': error('Missing or unknown API key'),
  '429': error("The team's rate limit is reached; see Retry-After"),
  default: error("Any other failure, in Firecrawl's error envelope"),
};
const notFound = error("No such run, another team's, or expired");

/** The agent and v1 deep research (server/api/routes/agent-routes.ts, deep-research-routes.ts). */
export const agentOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v2/agent',
    summary:
      "Start an agent: the model at LLM_BASE_URL plans, Tabhive's search, map, scrape and interact act",
    tag: 'v2',
    authenticated: true,
    body: 'AgentRequestV2',
    responses: {
      '200': { description: 'The run was accepted; poll its status by id', schema: 'AgentStarted' },
      '400': error('The body failed validation, or no LLM provider is configured (LLM_NOT_CONFIGURED)'),
      '402': error("The team's credits are spent"),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/agent',
    summary: "The team's agent runs, newest first",
    tag: 'v2',
    authenticated: true,
    query: 'AgentListQuery',
    responses: {
      '200': { description: 'A page of runs and the address of the next', schema: 'AgentList' },
      '400': error('`before` is not a Unix time in milliseconds'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/agent/{id}',
    summary: "An agent run's status, and its answer once completed",
    tag: 'v2',
    authenticated: true,
    responses: { '200': { description: 'The run', schema: 'AgentStatus' }, '404': notFound, ...common },
  },
  {
    method: 'delete',
    path: '/v2/agent/{id}',
    summary: 'Cancel a running agent: its loop and the model or page request in flight stop',
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'Cancelled', schema: 'AgentCancelled' },
      '404': notFound,
      '409': error('The run has already finished or been cancelled'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/agent/{id}/trace',
    summary: "Every event of a run: tool calls with their inputs and results' summaries, refusals, errors",
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'The trace', schema: 'AgentTraceResponse' },
      '404': notFound,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/agent/threads/{id}',
    summary: "A run's thread (every run is a one-turn thread of its own)",
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'The thread', schema: 'AgentThreadResponse' },
      '404': notFound,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/agent/{id}/snapshots/{snapshotId}',
    summary: 'The content of an artifact a run wrote (its answer)',
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'The artifact', schema: 'AgentSnapshotResponse' },
      '404': notFound,
      ...common,
    },
  },
  {
    method: 'post',
    path: '/v1/deep-research',
    summary: 'Start deep research: the agent loop with a research prompt, search and scrape',
    tag: 'v1',
    authenticated: true,
    body: 'DeepResearchRequestV1',
    responses: {
      '200': {
        description: 'The research was accepted; poll its status by id',
        schema: 'DeepResearchStarted',
      },
      '400': error('The body failed validation, or no LLM provider is configured (LLM_NOT_CONFIGURED)'),
      '402': error("The team's credits are spent"),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v1/deep-research/{id}',
    summary: "Deep research's activities and sources so far, and the final analysis",
    tag: 'v1',
    authenticated: true,
    responses: {
      '200': { description: 'The research', schema: 'DeepResearchStatus' },
      '404': notFound,
      ...common,
    },
  },
];
