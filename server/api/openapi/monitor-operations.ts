import type { ApiOperation } from './api-operation';

const error = (description: string) => ({ description, schema: 'ErrorEnvelope' as const });

const common = {
  '401': error('Missing or unknown API key'),
  default: error("Any other failure, in Firecrawl's error envelope"),
};
const notFound = error("No such monitor (or check), a malformed id, or another team's monitor");

/** Firecrawl's monitor routes, `/v2/monitor…` (server/api/routes/monitor-routes.ts). */
export const monitorOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v2/monitor',
    summary: 'Create a monitor: scrape, crawl or search targets checked for changes on a schedule',
    tag: 'v2',
    authenticated: true,
    body: 'CreateMonitorRequest',
    responses: {
      '200': {
        description: 'The monitor; `warning` names settings that are stored but not honoured',
        schema: 'MonitorResponse',
      },
      '400': error('The body failed validation: a bad cron, text schedule, time zone, target or limit'),
      '403': error('The webhook URL is refused by the URL policy (URL_BLOCKED)'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/monitor',
    summary: "The team's monitors, newest first",
    tag: 'v2',
    authenticated: true,
    query: 'MonitorListQuery',
    responses: {
      '200': { description: 'The monitors', schema: 'MonitorListResponse' },
      '400': error('A bad limit or offset'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/monitor/{id}',
    summary: 'A monitor',
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'The monitor', schema: 'MonitorResponse' },
      '404': notFound,
      ...common,
    },
  },
  {
    method: 'patch',
    path: '/v2/monitor/{id}',
    summary: 'Change a monitor: pause or resume it (`status`), its schedule, targets, webhook, goal…',
    tag: 'v2',
    authenticated: true,
    body: 'UpdateMonitorRequest',
    responses: {
      '200': { description: 'The monitor as changed', schema: 'MonitorResponse' },
      '400': error('The body failed validation'),
      '404': notFound,
      ...common,
    },
  },
  {
    method: 'delete',
    path: '/v2/monitor/{id}',
    summary: 'Delete a monitor and its checks',
    tag: 'v2',
    authenticated: true,
    responses: { '200': { description: 'Deleted', schema: 'MonitorDeleted' }, '404': notFound, ...common },
  },
  {
    method: 'post',
    path: '/v2/monitor/{id}/run',
    summary: 'Start a check of the monitor now',
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': { description: 'The check, running', schema: 'MonitorCheckResponse' },
      '404': notFound,
      '409': error('A check of this monitor is running (MONITOR_CHECK_RUNNING)'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/monitor/{id}/checks',
    summary: "The monitor's checks, newest first",
    tag: 'v2',
    authenticated: true,
    query: 'MonitorListQuery',
    responses: {
      '200': { description: 'The checks, without their pages', schema: 'MonitorCheckListResponse' },
      '400': error('A bad limit or offset'),
      '404': notFound,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/v2/monitor/{id}/checks/{checkId}',
    summary: 'A check with a page of its pages (same, changed, new, removed, error) and their diffs',
    tag: 'v2',
    authenticated: true,
    query: 'MonitorCheckQuery',
    responses: {
      '200': {
        description: 'The check; `next` is the URL of the following page of pages',
        schema: 'MonitorCheckDetailResponse',
      },
      '400': error('A bad limit, skip or status'),
      '404': notFound,
      ...common,
    },
  },
  ...(['confirm', 'unsubscribe'] as const).flatMap((action): ApiOperation[] => {
    const what =
      action === 'confirm'
        ? 'Confirm a recipient of monitor e-mail (double opt-in)'
        : 'Unsubscribe a recipient of monitor e-mail';
    const path = `/v2/notifications/email/${action}`;
    return [
      {
        method: 'get',
        path,
        summary: `${what}: the page the e-mailed link (\`?token=\`) opens, with a button that POSTs`,
        tag: 'v2',
        authenticated: false,
        responses: { '200': { description: 'The page', text: 'html' } },
      },
      {
        method: 'post',
        path,
        summary: `${what} (\`?token=\`)${action === 'unsubscribe' ? '; also RFC 8058 one-click' : ''}`,
        tag: 'v2',
        authenticated: false,
        responses: {
          '200': { description: 'Done', text: 'html' },
          '404': { description: 'No recipient has this token', text: 'html' },
        },
      },
    ];
  }),
];
