import Router from '@koa/router';
import type { WorkProblem } from '../observability';

/**
 * Unauthenticated liveness: `GET /` (plain text, as Firecrawl) and `GET /health` (operating
 * contract). `/health` answers `{ok, browsers, store}`; when work of this instance is wedged (a
 * derivation worker that ran past its time limit and does not stop, which only a restart frees),
 * it answers 503 with `ok: false` and the `problems`, so that a container's health check restarts
 * it. Work that is merely behind (every worker busy) is for `/ready`, not here.
 */
export function healthRoutes({
  connectedBrowsers,
  storeKind,
  workProblems = () => [],
}: {
  connectedBrowsers(): number;
  storeKind: 'mongodb' | 'embedded';
  workProblems?: (() => WorkProblem[]) | undefined;
}): Router {
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'Tabhive: a Firecrawl-compatible web content API. See /health.';
  });
  router.get('/health', (ctx) => {
    const wedged = workProblems().filter((problem) => problem.wedged);
    const answer = { ok: wedged.length === 0, browsers: connectedBrowsers(), store: storeKind };
    if (answer.ok) {
      ctx.body = answer;
      return;
    }
    ctx.status = 503;
    ctx.body = { ...answer, problems: wedged.map((problem) => problem.reason) };
  });
  return router;
}
