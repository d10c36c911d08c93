import { z } from 'zod';
import type { NewTeamInput, TeamSettingsInput } from '../../../platform/teams';
import { NoAnswer, sendJson } from '../send-json';
import type { KeysBackend } from './keys-backend';

/** An answer of the admin API that was not a success, in its own words. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

const Key = z.object({
  keyId: z.string(),
  hint: z.string(),
  teamId: z.string(),
  label: z.string(),
  createdAt: z.coerce.date(),
  revokedAt: z.coerce.date().optional(),
  lastUsedAt: z.coerce.date().optional(),
});
const Team = z.object({
  id: z.string(),
  name: z.string(),
  creditAllowance: z.number().nullable(),
  creditsUsed: z.number(),
  remainingCredits: z.number().nullable(),
  maxConcurrency: z.number().nullable(),
  rateLimitPerMinute: z.number().nullable(),
  createdAt: z.string(),
});
const NodeToken = z.object({
  id: z.string(),
  team: z.string().nullable(),
  label: z.string(),
  createdAt: z.coerce.date(),
  lastSeenAt: z.coerce.date().nullable(),
  revokedAt: z.coerce.date().nullable(),
});
const ErrorBody = z.object({ error: z.string(), code: z.string().optional() });
/** The code of the admin API's "no such team, key or token"; a 404 without it is a route the server lacks. */
const ADMIN_NOT_FOUND = 'TEAM_NOT_FOUND';

/** The server the admin API is asked on: --api-url, TABHIVE_API_URL, else this machine's PORT. */
export function adminApiUrl(given: string | undefined, env: NodeJS.ProcessEnv): string {
  return given ?? (env.TABHIVE_API_URL || `http://127.0.0.1:${env.PORT || '3002'}`);
}

/**
 * The keys commands through a running server's admin API (`/admin/v1`, ADMIN_API_KEY): the way
 * to manage keys while that server holds the embedded store. Nothing is opened, so nothing closes.
 */
export function createKeysAdminApi({
  apiUrl,
  adminApiKey,
}: {
  apiUrl: string;
  adminApiKey: string;
}): KeysBackend {
  const base = new URL(apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`);

  async function call<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.infer<S>> {
    const url = new URL(`admin/v1/${path}`, base);
    const { response, json } = await sendJson(url, { method, bearer: adminApiKey, body }).catch(
      (err: unknown) => {
        if (!(err instanceof NoAnswer)) throw err;
        throw new AdminApiError(
          0,
          `cannot reach the Tabhive server at ${err.origin} (${err.reason}). ` +
            'ADMIN_API_KEY is set, so the keys commands go through its admin API: start it (with that ADMIN_API_KEY), ' +
            'give its address with TABHIVE_API_URL, or unset ADMIN_API_KEY to work on the store directly.',
        );
      },
    );
    if (!response.ok) {
      const error = ErrorBody.safeParse(json);
      const said = error.success ? error.data.error : `HTTP ${response.status}`;
      throw new AdminApiError(
        response.status,
        response.status === 404 && (!error.success || error.data.code !== ADMIN_NOT_FOUND)
          ? `${base.origin} has no admin API: start the server with ADMIN_API_KEY set (the same value as here)`
          : response.status === 401
            ? `${said}: ADMIN_API_KEY is not the one the server at ${base.origin} was started with`
            : said,
      );
    }
    const envelope = z.object({ data: z.unknown() }).safeParse(json);
    const parsed = schema.safeParse(envelope.success ? envelope.data.data : undefined);
    if (!parsed.success)
      throw new AdminApiError(response.status, `unexpected answer from ${method} ${url.pathname}`);
    return parsed.data;
  }

  const team = (id: string) => `teams/${encodeURIComponent(id)}`;

  return {
    teams: {
      async createKey({ teamId, label, ensureTeam = false }) {
        const create = () =>
          call('POST', `${team(teamId)}/keys`, Key.extend({ apiKey: z.string() }), { label });
        let created;
        try {
          created = await create();
        } catch (err) {
          if (!ensureTeam || !(err instanceof AdminApiError) || err.status !== 404) throw err;
          // The store-side command makes a missing team on the way: so does this one.
          await call('POST', 'teams', Team, { id: teamId }).catch((again: unknown) => {
            if (!(again instanceof AdminApiError) || again.status !== 409) throw again;
          });
          created = await create();
        }
        const { apiKey, ...key } = created;
        return { apiKey, key };
      },
      listKeys: ({ teamId } = {}) =>
        call('GET', teamId === undefined ? 'keys' : `${team(teamId)}/keys`, z.array(Key)),
      revokeKey: (keyId: string) => call('DELETE', `keys/${encodeURIComponent(keyId)}`, Key),
      createTeam: (input: NewTeamInput) => call('POST', 'teams', Team, input),
      listTeams: () => call('GET', 'teams', z.array(Team)),
      updateTeam: (id: string, settings: TeamSettingsInput) => call('PATCH', team(id), Team, settings),
    },
    nodeTokens: {
      create: (input) => call('POST', 'node-tokens', NodeToken.extend({ token: z.string() }), input),
      list: () => call('GET', 'node-tokens', z.array(NodeToken)),
      revoke: (id: string) => call('DELETE', `node-tokens/${encodeURIComponent(id)}`, NodeToken),
    },
    close: async () => undefined,
  };
}
