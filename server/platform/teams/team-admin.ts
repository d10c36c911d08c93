import { z } from 'zod';
import type { Stores, TeamRecord } from '../store';
import { TeamId } from './team-id';

/** Settings an operator may give a team; `null` means unlimited (credits) or the server default. */
export const TeamSettingsInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    creditAllowance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
    maxConcurrency: z.number().int().min(1).max(10_000).nullable().optional(),
    rateLimitPerMinute: z.number().int().min(0).max(1_000_000).nullable().optional(),
  })
  .strict();
export type TeamSettingsInput = z.infer<typeof TeamSettingsInput>;

export const NewTeamInput = TeamSettingsInput.extend({ id: TeamId }).strict();
export type NewTeamInput = z.infer<typeof NewTeamInput>;

export const NewKeyInput = z.object({ label: z.string().trim().min(1).max(100).default('key') }).strict();

/** A team as operators see it: settings and balance, never its secrets. */
export interface TeamView {
  id: string;
  name: string;
  creditAllowance: number | null;
  creditsUsed: number;
  /** null when the team has no allowance. */
  remainingCredits: number | null;
  /** null: the server's TEAM_CONCURRENCY applies. */
  maxConcurrency: number | null;
  /** null: the server's RATE_LIMIT_PER_MINUTE applies. */
  rateLimitPerMinute: number | null;
  createdAt: string;
}

export const teamView = (team: TeamRecord): TeamView => ({
  id: team._id,
  name: team.name,
  creditAllowance: team.creditAllowance,
  creditsUsed: team.creditsUsed,
  remainingCredits:
    team.creditAllowance === null
      ? null
      : Math.max(0, team.creditsLeft ?? team.creditAllowance - team.creditsUsed),
  maxConcurrency: team.maxConcurrency ?? null,
  rateLimitPerMinute: team.rateLimitPerMinute ?? null,
  createdAt: new Date(team.createdAt).toISOString(),
});

export class TeamAdminError extends Error {
  constructor(
    readonly kind: 'exists' | 'not_found',
    message: string,
  ) {
    super(message);
    this.name = 'TeamAdminError';
  }
}

/**
 * Teams and keys as the operator manages them: the one implementation behind both the keys CLI
 * (`npm run keys`) and the admin API, so that both say and check the same things.
 */
export function createTeamAdmin(stores: Pick<Stores, 'teams' | 'apiKeys'>) {
  const mustGet = async (id: string) => {
    const team = await stores.teams.get(id);
    if (team === undefined) throw new TeamAdminError('not_found', `no team "${id}"`);
    return team;
  };

  return {
    async createTeam({ id, name, ...settings }: NewTeamInput): Promise<TeamView> {
      const created = await stores.teams.create({
        id,
        name: name ?? id,
        ...(settings.creditAllowance === undefined ? {} : { creditAllowance: settings.creditAllowance }),
        ...(settings.maxConcurrency == null ? {} : { maxConcurrency: settings.maxConcurrency }),
        ...(settings.rateLimitPerMinute == null ? {} : { rateLimitPerMinute: settings.rateLimitPerMinute }),
      });
      if (!created) throw new TeamAdminError('exists', `team "${id}" exists already`);
      return teamView(await mustGet(id));
    },

    listTeams: async () => (await stores.teams.list()).map(teamView),

    getTeam: async (id: string) => teamView(await mustGet(id)),

    async updateTeam(id: string, settings: TeamSettingsInput): Promise<TeamView> {
      await mustGet(id);
      return teamView((await stores.teams.configure(id, settings)) ?? (await mustGet(id)));
    },

    /** A new key for the team (created on the way when `ensureTeam`); the key is in the answer only. */
    async createKey({
      teamId,
      label,
      ensureTeam = false,
    }: {
      teamId: string;
      label: string;
      ensureTeam?: boolean;
    }) {
      if (ensureTeam) await stores.teams.ensure({ id: TeamId.parse(teamId), name: teamId });
      else await mustGet(teamId);
      return stores.apiKeys.create({ teamId, label });
    },

    async listKeys({ teamId }: { teamId?: string } = {}) {
      if (teamId !== undefined) await mustGet(teamId);
      return stores.apiKeys.list(teamId === undefined ? {} : { teamId });
    },

    async revokeKey(keyId: string) {
      const revoked = await stores.apiKeys.revokeById(keyId);
      if (revoked === undefined) throw new TeamAdminError('not_found', `no active key with id "${keyId}"`);
      return revoked;
    },
  };
}

export type TeamAdmin = ReturnType<typeof createTeamAdmin>;
