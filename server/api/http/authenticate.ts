import type { Middleware } from 'koa';
import type { Keyring, Team } from '../../platform/auth';
import { attributeUsage, maskApiKey } from '../../platform/store';
import { errors } from '../../platform/errors';

declare module 'koa' {
  interface DefaultState {
    team?: Team;
  }
}

/**
 * Bearer authentication with Firecrawl's three 401 answers (docs/wire-contract.md §1.2). The token is
 * the second space-separated part of the Authorization header.
 */
export function authenticate({ keyring }: { keyring: Keyring }): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header === '') throw errors.unauthorized();
    const token = header.trim().split(/\s+/)[1];
    if (token === undefined || token === '') throw errors.tokenMissing();
    const team = await keyring.findTeam(token);
    if (team === undefined) throw errors.invalidToken();
    ctx.state.team = team;
    // What the request books and spends is the team's, under this key (usage by key).
    return attributeUsage({ teamId: team.id, apiKey: maskApiKey(token) }, next);
  };
}

/** The team authenticate() put on the context; routes behind it can rely on it. */
export function teamOf(ctx: { state: { team?: Team } }): Team {
  if (ctx.state.team === undefined) throw new Error('route is not behind authenticate()');
  return ctx.state.team;
}
