import { errors } from '../errors';
import type { TeamStore } from '../store';

/**
 * Refuses work up front (402) when the team has an allowance and no credit left of it (docs/wire-contract.md
 * §9). A team not stored yet, or one without an allowance, may go on; what the work costs is
 * booked when it is done.
 */
export async function ensureCreditsLeft(teams: Pick<TeamStore, 'get'>, teamId: string): Promise<void> {
  const team = await teams.get(teamId);
  if (team !== undefined && team.creditAllowance !== null && team.creditAllowance - team.creditsUsed <= 0) {
    throw errors.insufficientCredits(teamId);
  }
}
