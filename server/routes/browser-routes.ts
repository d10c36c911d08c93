import Router from '@koa/router';
import type { Middleware } from 'koa';
import { BROWSERS_PATH, PAIR_PATH, PairRequest, UNPAIR_PATH } from '../../shared/api/tabhive/browser-pairing';
import { teamOf } from '../http/authenticate';
import { errors } from '../http/errors';
import { parseBody } from '../http/parse-body';
import type { PairingService } from '../pairing/create-pairing-service';

/**
 * Donated browsers (Tabhive's own API): a team makes pairing codes, lists and revokes its
 * browsers with its API key; a browser exchanges a code for its device token without one.
 */
export function browserRoutes({
  pairing,
  api,
  body,
  connectedIds,
}: {
  pairing: PairingService;
  /** Authenticates the team's API key and reads the body. */
  api: Middleware;
  /** Reads the body of the unauthenticated routes. */
  body: Middleware;
  connectedIds(): ReadonlySet<string>;
}): Router {
  const router = new Router();

  router.post(`${BROWSERS_PATH}/pairing-codes`, api, async (ctx) => {
    const { code, expiresAt } = await pairing.issueCode(teamOf(ctx).id);
    ctx.status = 201;
    ctx.body = { success: true, code, expiresAt: expiresAt.toISOString() };
  });

  router.get(BROWSERS_PATH, api, async (ctx) => {
    const connected = connectedIds();
    ctx.body = {
      success: true,
      browsers: (await pairing.list(teamOf(ctx).id)).map((registration) => ({
        id: registration._id,
        label: registration.label,
        allowedDomains: registration.allowedDomains,
        allowJavascript: registration.allowJavascript ?? false,
        enabled: registration.enabled ?? false,
        maxTabs: registration.maxTabs ?? null,
        connected: connected.has(registration._id),
        createdAt: registration.createdAt.toISOString(),
        lastSeenAt: registration.lastSeenAt?.toISOString() ?? null,
        revokedAt: registration.revokedAt?.toISOString() ?? null,
      })),
    };
  });

  router.delete(`${BROWSERS_PATH}/:id`, api, async (ctx) => {
    await pairing.revokeForTeam(teamOf(ctx).id, ctx.params.id ?? '');
    ctx.body = { success: true };
  });

  router.post(PAIR_PATH, body, async (ctx) => {
    const request = parseBody(PairRequest, ctx.request.body);
    ctx.body = { success: true, ...(await pairing.pair(request)) };
  });

  router.post(UNPAIR_PATH, async (ctx) => {
    const token = ctx.get('authorization').trim().split(/\s+/)[1];
    if (token === undefined || token === '') throw errors.deviceTokenInvalid();
    await pairing.unpairDevice(token);
    ctx.body = { success: true };
  });

  return router;
}
