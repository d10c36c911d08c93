import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { Log } from '../../platform/log';
import { StoreUnavailableError } from '../../platform/store';
import { errors, TabhiveError } from '../../platform/errors';
import { httpHeadersOf, httpStatusOf } from './error-status';

/**
 * Whether reading the request failed because its connection went away: the client gave up on an
 * upload, or the server's request deadline cut off a body that came too slowly. Nobody is left to
 * answer, and nothing is broken.
 */
function requestAborted(err: unknown, request: IncomingMessage): boolean {
  return (
    !request.complete &&
    request.destroyed &&
    err instanceof Error &&
    (err as NodeJS.ErrnoException).code === 'ECONNRESET'
  );
}

/**
 * The one place errors become responses. Domain errors (TabhiveError) render as Firecrawl's
 * envelope, with the status and headers their kind maps to (error-status.ts); a request
 * whose connection went away while it was read is a line at info level; anything else is a bug:
 * it is logged with an exception id and answered with a 500 that reveals no internals.
 */
export function errorHandler({ log }: { log: Log }): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      // The store's outage error is part of the domain, not of HTTP: it becomes a 503 here.
      const err = caught instanceof StoreUnavailableError ? errors.storeUnavailable() : caught;
      if (requestAborted(err, ctx.req)) {
        log.info('request aborted before it was read', { method: ctx.method, path: ctx.path });
        return;
      }
      if (err instanceof TabhiveError) {
        ctx.status = httpStatusOf(err);
        ctx.set(httpHeadersOf(err));
        ctx.body = {
          success: false,
          ...(err.code === undefined ? {} : { code: err.code }),
          error: err.message,
          ...(err.details === undefined ? {} : { details: err.details }),
        };
        return;
      }
      const exceptionId = randomUUID();
      log.error('unhandled error', {
        exceptionId,
        method: ctx.method,
        path: ctx.path,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      ctx.status = 500;
      ctx.body = {
        success: false,
        code: 'UNKNOWN_ERROR',
        error: `An unexpected error occurred. Your exception ID is ${exceptionId}`,
      };
    }
  };
}
