import type { NodeTokenAdmin } from '../../../browsers/hub';
import type { TeamAdmin } from '../../../platform/teams';

/**
 * What the keys commands act on: the store itself (open-keys-store.ts, the server stopped or on
 * MongoDB), or a running server's admin API (keys-admin-api.ts, when ADMIN_API_KEY is set). Both
 * answer alike, so every command and its output is one definition.
 */
export interface KeysBackend {
  teams: Pick<TeamAdmin, 'createKey' | 'listKeys' | 'revokeKey' | 'createTeam' | 'listTeams' | 'updateTeam'>;
  nodeTokens: Pick<NodeTokenAdmin, 'create' | 'list' | 'revoke'>;
  close(): Promise<void>;
}
