import Router from '@koa/router';
import type { Context } from 'koa';
import type { MonitorService } from '../../products/monitors';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  // A page reached from an e-mail: nothing of it may be framed, cached or sent on as a referrer.
  ctx.set('cache-control', 'no-store');
  ctx.set('referrer-policy', 'no-referrer');
  ctx.set(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  ctx.body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(title)}</title><style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}</style>` +
    `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const tokenOf = (ctx: Context) => (typeof ctx.query.token === 'string' ? ctx.query.token : '');

/**
 * The links in monitor e-mail (docs/monitors.md#notifications), without an API key: the token in
 * the link names one recipient of one monitor. Following a link (GET) shows a button, and only its
 * POST changes anything, so a mail scanner that opens links neither confirms nor unsubscribes
 * anyone. Unsubscribe also takes RFC 8058's one-click POST from mail clients.
 */
export function notificationRoutes({ monitors }: { monitors: MonitorService }): Router {
  const router = new Router();
  const actions = [
    {
      path: '/v2/notifications/email/confirm',
      status: 'confirmed' as const,
      ask: 'Confirm monitor e-mail',
      button: 'Yes, send me these notifications',
      done: (email: string, status: string) =>
        status === 'confirmed'
          ? `<p>${escapeHtml(email)} will receive this monitor's notifications. Every e-mail has a link to stop them.</p>`
          : `<p>${escapeHtml(email)} unsubscribed from this monitor earlier and stays unsubscribed.</p>`,
    },
    {
      path: '/v2/notifications/email/unsubscribe',
      status: 'unsubscribed' as const,
      ask: 'Stop monitor e-mail',
      button: 'Unsubscribe',
      done: (email: string) => `<p>${escapeHtml(email)} will receive no more e-mail from this monitor.</p>`,
    },
  ];
  for (const action of actions) {
    router.get(action.path, (ctx) => {
      const token = tokenOf(ctx);
      page(
        ctx,
        200,
        action.ask,
        `<form method="post" action="${escapeHtml(`${action.path}?token=${encodeURIComponent(token)}`)}">` +
          `<button type="submit">${escapeHtml(action.button)}</button></form>`,
      );
    });
    router.post(action.path, async (ctx) => {
      const answered = await monitors.answerRecipient(tokenOf(ctx), action.status);
      if (answered === undefined) {
        page(ctx, 404, 'Link not recognised', '<p>This link is not (or no longer) valid.</p>');
        return;
      }
      page(
        ctx,
        200,
        action.status === 'confirmed' ? 'Subscription confirmed' : 'Unsubscribed',
        action.done(answered.email, answered.status),
      );
    });
  }
  return router;
}
