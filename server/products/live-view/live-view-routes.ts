import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { LiveSessionDirectory } from '../browser-sessions';
import { liveViewCsp, renderLiveViewGone, renderLiveViewPage } from './live-view-page';

/**
 * `GET /live/:token`: a browser session's live view page, watching or interactive by the token.
 * Unauthenticated by itself (it is a page a person opens); the page asks for the team's API key,
 * which its socket checks. A token no running session has gets a 404 page.
 */
export function liveViewRoutes({ sessions }: { sessions: LiveSessionDirectory }): Router {
  const router = new Router();
  router.get('/live/:token', (ctx) => {
    const found = sessions.byViewToken(ctx.params['token'] ?? '');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    if (found === undefined) {
      ctx.status = 404;
      ctx.set('Content-Security-Policy', "default-src 'none'");
      ctx.body = renderLiveViewGone();
      return;
    }
    const nonce = randomBytes(18).toString('base64');
    ctx.set('Content-Security-Policy', liveViewCsp(nonce));
    ctx.set('X-Frame-Options', 'DENY');
    ctx.body = renderLiveViewPage({ nonce, interactive: found.interactive });
  });
  return router;
}
