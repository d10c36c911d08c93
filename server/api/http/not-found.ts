import type { Middleware } from 'koa';
import { errors } from '../../platform/errors';
import { unservedFeature } from './unserved-routes';

/**
 * Unknown routes get a JSON 404 (Firecrawl answers with Express's HTML page; no client depends on
 * it); Firecrawl endpoints that Tabhive leaves out say which feature is missing. A known path asked
 * with another method (the router answers 405, or 501 for methods such as TRACE) gets a JSON 405.
 */
export function notFound(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined) return;
    if (ctx.status === 405 || ctx.status === 501)
      throw errors.methodNotAllowed(ctx.method, ctx.response.get('Allow'));
    if (ctx.status !== 404) return;
    const feature = unservedFeature(ctx.path);
    throw feature === undefined
      ? errors.notFound()
      : errors.unsupportedEndpoint(ctx.method, ctx.path, feature);
  };
}
