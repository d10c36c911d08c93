import { type BrowserEngineStats, NewNodeTokenInput, type NodeTokenAdmin } from '../../browsers/hub';
import Router from '@koa/router';
import compose from 'koa-compose';
import type { Middleware } from 'koa';
import { createStaticKeyring, type Team } from '../../platform/auth';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import { readJsonBody } from '../http';
import {
  NewKeyInput,
  NewTeamInput,
  TeamAdminError,
  TeamSettingsInput,
  type TeamAdmin,
  TeamId,
} from '../../platform/teams';
import type { PairingService } from '../../browsers/pairing';

const ADMIN: Team = { id: 'admin', name: 'Admin' };

/** Bearer ADMIN_API_KEY, compared by digest in constant time. */
function adminAuth(adminApiKey: string): Middleware {
  const keyring = createStaticKeyring([{ apiKey: adminApiKey, team: ADMIN }]);
  return async (ctx, next) => {
    const token = ctx.get('authorization').trim().split(/\s+/)[1];
    if (token === undefined || token === '' || (await keyring.findTeam(token)) === undefined)
      throw errors.adminUnauthorized();
    return next();
  };
}

/** The admin API's domain errors as HTTP. */
const renderAdminErrors: Middleware = async (_ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof TeamAdminError)) throw err;
    throw err.kind === 'exists' ? errors.conflict(err.message) : errors.teamNotFound(err.message);
  }
};

const teamIdParam = (value: string | undefined) => {
  const parsed = TeamId.safeParse(value);
  if (!parsed.success) throw errors.teamNotFound(`no team "${value ?? ''}"`);
  return parsed.data;
};

/**
 * `/admin/v1/…`: teams, their allowances and limits, and their API keys, for operators, guarded
 * by ADMIN_API_KEY (the app mounts these routes only when it is set). The same operations as
 * `npm run keys`, through the running server, which is the way to change them on an embedded
 * store while the server has it open.
 */
export function adminRoutes({
  admin,
  adminApiKey,
  browsers,
  nodeTokens,
  pairing,
}: {
  admin: TeamAdmin;
  adminApiKey: string;
  /** The connected browsers, with what their tasks cost them (create-browser-hub.ts). */
  browsers?: () => BrowserEngineStats[];
  /** Browser node tokens (`npm run browser-node`). */
  nodeTokens?: NodeTokenAdmin;
  /** Donated browsers: the admin revokes one as its team would. */
  pairing?: Pick<PairingService, 'revokeForTeam'>;
}): Router {
  const router = new Router({ prefix: '/admin/v1' });
  router.use(compose([adminAuth(adminApiKey), renderAdminErrors, readJsonBody({ limitBytes: 64 * 1024 })]));

  router.get('/teams', async (ctx) => {
    ctx.body = { success: true, data: await admin.listTeams() };
  });
  router.post('/teams', async (ctx) => {
    ctx.body = { success: true, data: await admin.createTeam(parseBody(NewTeamInput, ctx.request.body)) };
  });
  router.get('/teams/:team', async (ctx) => {
    ctx.body = { success: true, data: await admin.getTeam(teamIdParam(ctx.params.team)) };
  });
  router.patch('/teams/:team', async (ctx) => {
    const settings = parseBody(TeamSettingsInput, ctx.request.body);
    ctx.body = { success: true, data: await admin.updateTeam(teamIdParam(ctx.params.team), settings) };
  });
  router.get('/teams/:team/keys', async (ctx) => {
    ctx.body = { success: true, data: await admin.listKeys({ teamId: teamIdParam(ctx.params.team) }) };
  });
  router.post('/teams/:team/keys', async (ctx) => {
    const { label } = parseBody(NewKeyInput, ctx.request.body);
    const { apiKey, key } = await admin.createKey({ teamId: teamIdParam(ctx.params.team), label });
    ctx.body = { success: true, data: { ...key, apiKey } };
  });
  router.get('/keys', async (ctx) => {
    ctx.body = { success: true, data: await admin.listKeys() };
  });
  router.delete('/keys/:keyId', async (ctx) => {
    ctx.body = { success: true, data: await admin.revokeKey(ctx.params.keyId ?? '') };
  });
  if (nodeTokens !== undefined) {
    router.get('/node-tokens', async (ctx) => {
      ctx.body = { success: true, data: await nodeTokens.list() };
    });
    router.post('/node-tokens', async (ctx) => {
      ctx.body = {
        success: true,
        data: await nodeTokens.create(parseBody(NewNodeTokenInput, ctx.request.body ?? {})),
      };
    });
    router.delete('/node-tokens/:id', async (ctx) => {
      ctx.body = { success: true, data: await nodeTokens.revoke(ctx.params.id ?? '') };
    });
  }
  if (pairing !== undefined) {
    // The team is in the path, as the console's browser rows show it: the same call as the
    // team's own DELETE /tabhive/v1/browsers/:id, so a browser of another team is "not found".
    router.delete('/teams/:team/browsers/:id', async (ctx) => {
      await pairing.revokeForTeam(teamIdParam(ctx.params.team), ctx.params.id ?? '');
      ctx.body = { success: true };
    });
  }
  if (browsers !== undefined) {
    router.get('/browsers', (ctx) => {
      ctx.body = { success: true, data: browsers() };
    });
  }
  return router;
}
