import type { Middleware } from 'koa';
import { createStaticKeyring, type Keyring, type Team } from '../../platform/auth';
import { errors } from '../../platform/errors';
import { bearerToken } from '../http';

/** Whose data a console request may see: every team's (ADMIN_API_KEY) or one team's (its API key). */
export type ConsoleScope = { kind: 'admin' } | { kind: 'team'; team: Team };

declare module 'koa' {
  interface DefaultState {
    consoleScope?: ConsoleScope;
  }
}

const ADMIN_TEAM: Team = { id: 'admin', name: 'Admin' };

/**
 * Bearer authentication for `/console/api/…`: the admin key (compared by digest, as the admin API
 * does) or a team's API key, with the API's own 401 answers. Never a key in the URL.
 */
export function consoleScope({
  keyring,
  adminApiKey,
}: {
  keyring: Keyring;
  adminApiKey: string | undefined;
}): Middleware {
  const admin =
    adminApiKey === undefined ? undefined : createStaticKeyring([{ apiKey: adminApiKey, team: ADMIN_TEAM }]);
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('authorization'));
    if (admin !== undefined && (await admin.findTeam(token)) !== undefined) {
      ctx.state.consoleScope = { kind: 'admin' };
    } else {
      const team = await keyring.findTeam(token);
      if (team === undefined) throw errors.invalidToken();
      ctx.state.consoleScope = { kind: 'team', team };
    }
    ctx.set('Cache-Control', 'no-store');
    return next();
  };
}

export function scopeOf(ctx: { state: { consoleScope?: ConsoleScope } }): ConsoleScope {
  if (ctx.state.consoleScope === undefined) throw new Error('route is not behind consoleScope()');
  return ctx.state.consoleScope;
}

/** The team whose data the request reads: the key's team, or for the admin the `team` asked for (all when absent). */
export function teamFilter(scope: ConsoleScope, asked: string | undefined): string | undefined {
  return scope.kind === 'team' ? scope.team.id : asked === '' ? undefined : asked;
}

/** Whether the scope may see a record of `teamId`. */
export const mayRead = (scope: ConsoleScope, teamId: string) =>
  scope.kind === 'admin' || scope.team.id === teamId;
