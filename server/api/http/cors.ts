import type { Middleware } from 'koa';

/** Permissive CORS, as Firecrawl's API has: browsers may call the API from any origin with a key. */
export function cors(): Middleware {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET,POST,PUT,DELETE,OPTIONS');
      ctx.set(
        'Access-Control-Allow-Headers',
        ctx.get('access-control-request-headers') || 'Authorization,Content-Type',
      );
      ctx.set('Access-Control-Max-Age', '86400');
      ctx.status = 204;
      return;
    }
    return next();
  };
}
