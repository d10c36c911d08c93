import type { NodeTokenView } from '../../../browsers/hub';
import type { TeamView } from '../../../platform/teams';

/** The plain-text lines the keys commands print (with --json they print the objects instead). */

export const teamLine = (team: TeamView) =>
  [
    team.id.padEnd(20),
    `credits used ${team.creditsUsed}`,
    team.creditAllowance === null
      ? 'allowance unlimited'
      : `allowance ${team.creditAllowance} (left ${team.remainingCredits})`,
    `concurrency ${team.maxConcurrency ?? 'default'}`,
    `rate limit ${team.rateLimitPerMinute ?? 'default'}/min`,
  ].join('  ');

export const keyLine = (key: {
  keyId: string;
  hint: string;
  teamId: string;
  label: string;
  revokedAt?: Date | undefined;
}) =>
  [
    key.keyId,
    key.hint.padEnd(12),
    key.teamId.padEnd(20),
    key.label.padEnd(16),
    key.revokedAt === undefined ? 'active' : `revoked ${key.revokedAt.toISOString()}`,
  ].join('  ');

export const nodeTokenLine = (token: NodeTokenView) =>
  [
    token.id,
    (token.team ?? 'pool').padEnd(20),
    token.label.padEnd(16),
    token.revokedAt === null ? 'active' : `revoked ${token.revokedAt.toISOString()}`,
    token.lastSeenAt === null ? 'never seen' : `seen ${token.lastSeenAt.toISOString()}`,
  ].join('  ');
