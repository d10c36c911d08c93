import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  BROWSERS_PATH,
  PAIR_PATH,
  PairRequest,
  SAVED_PAGES_PATH,
  SavedPageRequest,
  UNPAIR_PATH,
} from '../../../shared/api/tabhive/browser-pairing';
import { teamOf } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import type { PairingService } from '../../browsers/pairing';

/**
 * The largest body `POST /pair` reads. It comes before any credential, and a pairing is a code of
 * at most 64 characters and a label of at most 100: a few hundred bytes of JSON.
 */
export const MAX_PAIR_BODY_BYTES = 8 * 1024;

/** The bearer token of a browser's own requests. */
function deviceToken(ctx: { get(header: string): string }): string {
  const token = ctx.get('authorization').trim().split(/\s+/)[1];
  if (token === undefined || token === '') throw errors.deviceTokenInvalid();
  return token;
}

/**
 * Donated browsers (Tabhive's own API): a team makes pairing codes, lists and revokes its
 * browsers with its API key; a browser exchanges a code for its device token without one.
 */
export function browserRoutes({
  pairing,
  api,
  body,
  pairBody,
  connectedIds,
  savePage,
}: {
  pairing: PairingService;
  /** Authenticates the team's API key and reads the body. */
  api: Middleware;
  /** Reads the body of the routes a device token authenticates. */
  body: Middleware;
  /** Reads the body of the unauthenticated pairing route, up to MAX_PAIR_BODY_BYTES. */
  pairBody: Middleware;
  connectedIds(): ReadonlySet<string>;
  /** Adds a page a person saved to the team's search index; without it the route is left out. */
  savePage?: (teamId: string, page: SavedPageRequest) => Promise<void>;
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

  router.post(PAIR_PATH, pairBody, async (ctx) => {
    const request = parseBody(PairRequest, ctx.request.body);
    ctx.body = { success: true, ...(await pairing.pair(request)) };
  });

  router.post(UNPAIR_PATH, async (ctx) => {
    await pairing.unpairDevice(deviceToken(ctx));
    ctx.body = { success: true };
  });

  if (savePage !== undefined) {
    // The device token authenticates before the body is read, as API keys do.
    router.post(
      SAVED_PAGES_PATH,
      async (ctx, next) => {
        ctx.state.deviceTeamId = await pairing.teamOfDevice(deviceToken(ctx));
        return next();
      },
      body,
      async (ctx) => {
        await savePage(ctx.state.deviceTeamId as string, parseBody(SavedPageRequest, ctx.request.body));
        ctx.status = 201;
        ctx.body = { success: true };
      },
    );
  }

  return router;
}
