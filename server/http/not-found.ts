import type { Middleware } from 'koa';
import { errors } from './errors';
import { unservedFeature } from './unserved-routes';

/**
 * Unknown routes get a JSON 404 (Firecrawl answers with Express's HTML page; no client depends on
 * it); Firecrawl endpoints that Tabhive leaves out say which feature is missing.
 */
export function notFound(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    const feature = unservedFeature(ctx.path);
    throw feature === undefined
      ? errors.notFound()
      : errors.unsupportedEndpoint(ctx.method, ctx.path, feature);
  };
}
