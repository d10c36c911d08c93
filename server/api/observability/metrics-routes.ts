import { createHash, timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { Registry } from 'prom-client';
import { errors } from '../../platform/errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` in Prometheus's text format, from this instance's registry. Without a token it
 * answers anyone, like /health; with METRICS_TOKEN it asks for `Authorization: Bearer <token>`.
 */
export function metricsRoutes({
  registry,
  token,
}: {
  registry: Registry;
  token?: string | undefined;
}): Router {
  const router = new Router();
  const expected = token === undefined ? undefined : digest(token);
  router.get('/metrics', async (ctx) => {
    if (expected !== undefined) {
      const [scheme, given] = ctx.get('authorization').trim().split(/\s+/);
      // Compared by digest in constant time, as API keys are.
      const matches =
        scheme?.toLowerCase() === 'bearer' && given !== undefined && timingSafeEqual(digest(given), expected);
      if (!matches) throw errors.unauthorized();
    }
    ctx.body = await registry.metrics();
    // Set after the body, which would make it plain text: the format's version rides in it.
    ctx.set('content-type', registry.contentType);
    ctx.set('cache-control', 'no-store');
  });
  return router;
}
