import type { Middleware } from 'koa';
import { errors } from './errors';

/** Unknown routes get a JSON 404 (Firecrawl answers with Express's HTML page; no client depends on it). */
export function notFound(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) throw errors.notFound();
  };
}
