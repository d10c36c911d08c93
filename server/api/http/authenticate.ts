import type { Middleware } from 'koa';
import type { Keyring, Team } from '../../platform/auth';
import { attributeUsage, maskApiKey } from '../../platform/store';
import { errors } from '../../platform/errors';

declare module 'koa' {
  interface DefaultState {
    team?: Team;
  }
}

/** Words that name an authorization scheme: alone in the header, the token after them is missing. */
const SCHEMES = new Set(['bearer', 'basic', 'token']);

/**
 * The token of an Authorization header: its second space-separated word (docs/wire-contract.md
 * §1.2), or why there is none. One word alone is a scheme without its token (`Bearer` with an empty
 * variable after it), or else a key sent without its scheme.
 */
function tokenOf(header: string): { token: string } | { missing: 'header' | 'token' | 'scheme' } {
  const words = header.trim().split(/\s+/);
  const [first = '', token] = words;
  if (first === '') return { missing: 'header' };
  if (token !== undefined && token !== '') return { token };
  return { missing: SCHEMES.has(first.toLowerCase()) ? 'token' : 'scheme' };
}

/**
 * The bearer token of an Authorization header, or Firecrawl's 401 for what is wrong with it
 * (docs/wire-contract.md §1.2), and a fourth answer that says the scheme is missing when the
 * header holds a key alone.
 */
export function bearerToken(header: string): string {
  const read = tokenOf(header);
  if (!('missing' in read)) return read.token;
  throw read.missing === 'header'
    ? errors.unauthorized()
    : read.missing === 'token'
      ? errors.tokenMissing()
      : errors.schemeMissing();
}

/** Bearer authentication: the key's team on the context, or a 401 (bearerToken). */
export function authenticate({ keyring }: { keyring: Keyring }): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('authorization'));
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
