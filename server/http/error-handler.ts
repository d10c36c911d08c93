import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Log } from '../log';
import { StoreUnavailableError } from '../store/database';
import { ApiError } from './api-error';
import { errors } from './errors';

/**
 * The one place errors become responses. ApiErrors render as Firecrawl's envelope; anything else
 * is a bug: it is logged with an exception id and answered with a 500 that reveals no internals.
 */
export function errorHandler({ log }: { log: Log }): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      // The store's outage error is part of the domain, not of HTTP: it becomes a 503 here.
      const err = caught instanceof StoreUnavailableError ? errors.storeUnavailable() : caught;
      if (err instanceof ApiError) {
        ctx.status = err.status;
        ctx.set(err.headers);
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
