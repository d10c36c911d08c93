import type { ApiOperation } from './api-operation';

const error = (description: string) => ({ description, schema: 'ErrorEnvelope' as const });

const common = {
  '401': error('Missing or unknown API key'),
  '429': error("The team's rate limit, or its limit of sessions at once, is reached"),
  default: error("Any other failure, in Firecrawl's error envelope"),
};

const executed = {
  '200': {
    description: 'What the code, actions or prompt did: output, result, errors, timeouts',
    schema: 'BrowserExecuted' as const,
  },
  '400': error(
    'The body failed validation, or `language` is python or bash (only JavaScript runs: Playwright code in a sandbox, or in the page)',
  ),
  '404': error("No such session (or scrape), another team's, or ended"),
};

/**
 * Browser sessions and a scrape's interaction (server/api/routes/browser-session-routes.ts), and the
 * live view page (server/products/live-view/live-view-routes.ts). The live view's socket and the CDP relay
 * are WebSocket upgrades, which OpenAPI does not describe: see docs/browser-sessions.md.
 */
export const browserSessionOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/live/{token}',
    summary: "A session's live view page (watching or interactive); it asks for the team's API key",
    tag: 'v2',
    authenticated: false,
    responses: {
      '200': { description: 'The page', text: 'html' },
      '404': { description: 'No running session has this token', text: 'html' },
    },
  },
  {
    method: 'post',
    path: '/v2/browser',
    summary: "Lease a tab of one of the team's browsers: JavaScript, actions, live view and CDP",
    tag: 'v2',
    authenticated: true,
    body: 'BrowserCreateRequest',
    responses: {
      '200': { description: 'The session, with its addresses', schema: 'BrowserCreated' },
      '400': error('The body failed validation'),
      '402': error("The team's credits are spent"),
      '503': error('No browser tab came free in time'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/browser',
    summary: "The team's sessions, running (`status=active`) or ended (`status=destroyed`)",
    tag: 'v2',
    authenticated: true,
    query: 'BrowserListQuery',
    responses: { '200': { description: 'The sessions', schema: 'BrowserList' }, ...common },
  },
  {
    method: 'post',
    path: '/v2/browser/{id}/execute',
    summary:
      "Run Playwright code (language node, sandboxed), JavaScript in the session's page (language page), Firecrawl actions, or a prompt",
    tag: 'v2',
    authenticated: true,
    body: 'BrowserExecuteRequest',
    responses: { ...executed, ...common },
  },
  {
    method: 'delete',
    path: '/v2/browser/{id}',
    summary: 'End a session (its profile is saved when it asked for that) and bill its minutes',
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'How long it ran and what it cost', schema: 'BrowserDeleted' },
      '404': error("No such session, or another team's"),
      ...common,
    },
  },
  {
    method: 'post',
    path: '/v2/scrape/{id}/interact',
    summary: "Run code, actions or a prompt on a scrape's page, loaded again in a tab kept for it",
    tag: 'v2',
    authenticated: true,
    body: 'BrowserExecuteRequest',
    responses: { ...executed, ...common },
  },
  {
    method: 'delete',
    path: '/v2/scrape/{id}/interact',
    summary: "End a scrape's interaction tab",
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'How long it ran and what it cost', schema: 'BrowserDeleted' },
      '404': error("No such scrape, or another team's"),
      ...common,
    },
  },
  ...replayOperations('/v2/browser'),
];

/** The session replay routes (server/api/routes/replay-routes.ts) under one prefix. */
function replayOperations(prefix: '/v2/browser' | '/v2/interact'): ApiOperation[] {
  return [
    {
      method: 'get',
      path: `${prefix}/{id}/replay`,
      summary: "A session's recorded pages (rrweb), running or ended",
      tag: 'v2',
      authenticated: true,
      responses: {
        '200': { description: 'The pages, in the order they started', schema: 'ReplayPages' },
        '404': error("No such session, or another team's"),
        ...common,
      },
    },
    {
      method: 'get',
      path: `${prefix}/{id}/replay/{pageId}`,
      summary: "One recorded page's rrweb events (Firecrawl serves a video playlist here)",
      tag: 'v2',
      authenticated: true,
      responses: {
        '200': { description: "The page's events, in order", schema: 'ReplayPage' },
        '400': error('The page id is not a number'),
        '404': error("No such session or page, or another team's"),
        ...common,
      },
    },
  ];
}

/** Firecrawl's current server answers the `/v2/browser` routes under `/v2/interact` too. */
export const interactAliasOperations: ApiOperation[] = [
  ...browserSessionOperations
    .filter(
      (operation) =>
        operation.path === '/v2/browser' || /^\/v2\/browser\/\{id\}(\/execute)?$/.test(operation.path),
    )
    .map((operation) => ({
      ...operation,
      path: operation.path.replace('/v2/browser', '/v2/interact'),
      summary: `${operation.summary} (\`/v2/interact\`, as Firecrawl's current server names it)`,
    })),
  ...replayOperations('/v2/interact'),
];
