import Router from '@koa/router';

/** Unauthenticated liveness: `GET /` (plain text, as Firecrawl) and `GET /health` (operating contract). */
export function healthRoutes({
  connectedBrowsers,
  storeKind,
}: {
  connectedBrowsers(): number;
  storeKind: 'mongodb' | 'embedded';
}): Router {
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'Tabhive: a Firecrawl-compatible web content API. See /health.';
  });
  router.get('/health', (ctx) => {
    ctx.body = { ok: true, browsers: connectedBrowsers(), store: storeKind };
  });
  return router;
}
