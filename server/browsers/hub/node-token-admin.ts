import { z } from 'zod';
import { newNodeToken, newNodeTokenId, nodeTokenDigest } from './node-token-directory';
import type { Stores, BrowserNodeToken } from '../../platform/store';
import { TeamAdminError, TeamId } from '../../platform/teams';

export const NewNodeTokenInput = z
  .object({
    /** The team whose tasks the node's browsers serve only; absent or null for the shared pool. */
    team: TeamId.nullable().optional(),
    label: z.string().trim().min(1).max(100).optional(),
  })
  .strict();
export type NewNodeTokenInput = z.infer<typeof NewNodeTokenInput>;

/** A node token as lists show it: never its secret. */
export interface NodeTokenView {
  id: string;
  team: string | null;
  label: string;
  createdAt: Date;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
}

const view = (token: BrowserNodeToken): NodeTokenView => ({
  id: token._id,
  team: token.teamId,
  label: token.label,
  createdAt: token.createdAt,
  lastSeenAt: token.lastSeenAt ?? null,
  revokedAt: token.revokedAt ?? null,
});

/**
 * Browser node tokens for operators (admin API and `npm run keys -- node-token …`): the secret is
 * shown once, at creation; the store keeps its digest. A revoked token's browsers are disconnected
 * within seconds by every instance (create-browser-hub.ts) and cannot connect again.
 */
export function createNodeTokenAdmin(stores: Pick<Stores, 'browserNodeTokens' | 'teams'>) {
  return {
    async create(input: NewNodeTokenInput): Promise<NodeTokenView & { token: string }> {
      const teamId = input.team ?? null;
      if (teamId !== null && (await stores.teams.get(teamId)) === undefined) {
        throw new TeamAdminError('not_found', `no team "${teamId}"`);
      }
      const token = newNodeToken();
      const stored = await stores.browserNodeTokens.create({
        _id: newNodeTokenId(),
        tokenDigest: nodeTokenDigest(token),
        teamId,
        label: input.label ?? (teamId === null ? 'pool node' : `${teamId} node`),
      });
      return { ...view(stored), token };
    },

    list: async () => (await stores.browserNodeTokens.list()).map(view),

    async revoke(id: string): Promise<NodeTokenView> {
      if (!(await stores.browserNodeTokens.revoke(id))) {
        throw new TeamAdminError('not_found', `no active node token with id "${id}"`);
      }
      return view((await stores.browserNodeTokens.get(id)) as BrowserNodeToken);
    },
  };
}

export type NodeTokenAdmin = ReturnType<typeof createNodeTokenAdmin>;
