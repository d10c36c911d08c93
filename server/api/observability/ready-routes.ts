import Router from '@koa/router';
import type { Log } from '../../platform/log';
import { checkReadiness, type ReadinessDeps } from './check-readiness';

/**
 * `GET /ready`, unauthenticated: 200 when this instance can serve (its store answers, and a browser
 * is there if it serves browser work), else 503 with the reasons, for a load balancer or an
 * orchestrator to route around it. `/health` stays the liveness answer.
 */
export function readyRoutes({ readiness, log }: { readiness: ReadinessDeps; log: Log }): Router {
  const router = new Router();
  let wasReady: boolean | undefined;
  router.get('/ready', async (ctx) => {
    const { storeError, ...answer } = await checkReadiness(readiness);
    // Probes come every few seconds: the log says when readiness changes, not each time.
    if (answer.ready !== wasReady) {
      if (answer.ready) log.info('ready', { browsers: answer.browsers });
      else log.warn('not ready', { reasons: answer.reasons, storeError, browsers: answer.browsers });
      wasReady = answer.ready;
    }
    ctx.status = answer.ready ? 200 : 503;
    ctx.set('cache-control', 'no-store');
    ctx.body = answer;
  });
  return router;
}
