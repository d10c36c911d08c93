/** Teams: credits, concurrency and rate limits, token usage, admin operations and usage reports. */
export { ensureCreditsLeft } from './ensure-credits-left';
export { recordTokens } from './record-tokens';
export { NewKeyInput, NewTeamInput, TeamAdminError, TeamSettingsInput, createTeamAdmin } from './team-admin';
export type { TeamAdmin, TeamView } from './team-admin';
export { TeamId } from './team-id';
export { createTeamLimits } from './team-limits';
export type { TeamLimits } from './team-limits';
export { createUsageReports } from './usage-reports';
export type { UsageReports } from './usage-reports';
