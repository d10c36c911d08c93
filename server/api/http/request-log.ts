import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { type Log, withLogContext } from '../../platform/log';

export const REQUEST_ID_HEADER = 'x-request-id';
/**
 * A caller's (or a proxy's) request id is kept when it is a plain token: letters, digits and
 * `._:-`, as UUIDs, ULIDs and most tracing ids are. Anything else is replaced, so that a log line
 * never carries what a client chose to put there.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Polled by health checks and metrics scrapers: their successful answers are debug lines. */
const POLLED_PATHS = new Set(['/health', '/ready', '/metrics']);

/**
 * The path as logged: never the query string (keys may travel there), and no capability tokens
 * that are part of a path (a live view's address lets anyone who has it watch the browser).
 */
export function loggedPath(path: string): string {
  return path.replace(/^\/live\/[^/]+/, '/live/:token');
}

/**
 * One line per HTTP request once its response is sent or its connection is gone: method, path,
 * status, duration, team, and a request id that is also the `x-request-id` response header and on
 * every line logged while the request is worked on (log-context.ts). No header, body or query
 * string is logged. Mounted first, so the status is the one the error handler rendered.
 */
export function requestLog({ log }: { log: Log }): Middleware {
  return async (ctx, next) => {
    const offered = ctx.get(REQUEST_ID_HEADER);
    const requestId = SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
    ctx.set(REQUEST_ID_HEADER, requestId);
    const startedAt = performance.now();
    ctx.res.once('close', () => {
      const teamId = ctx.state.team?.id;
      const fields = {
        requestId,
        method: ctx.method,
        path: loggedPath(ctx.path),
        status: ctx.status,
        durationMs: Math.round(performance.now() - startedAt),
        ...(teamId === undefined ? {} : { teamId }),
        ...errorCodeOf(ctx.body),
        ...(ctx.res.writableFinished ? {} : { aborted: true }),
      };
      if (POLLED_PATHS.has(ctx.path) && ctx.status < 400) log.debug?.('request', fields);
      else log.info('request', fields);
    });
    await withLogContext({ requestId }, next);
  };
}

/** The stable code of an error answer (Firecrawl's envelope), so that a failed request says why. */
function errorCodeOf(body: unknown): { code?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const { success, code } = body as { success?: unknown; code?: unknown };
  return success === false && typeof code === 'string' ? { code } : {};
}
