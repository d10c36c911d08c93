import type { Log } from '../log';
import { type UsageMonthStore, usageAttribution } from '../store';

/**
 * Books model tokens in the monthly usage of the team (and key) whose work made the call. Calls
 * made outside any attributed work (none today) are not booked; a failed write is logged, and the
 * answer the tokens bought is used all the same.
 */
export function recordTokens(usage: UsageMonthStore, tokens: number, log: Log, at = new Date()): void {
  const who = usageAttribution();
  if (who === undefined || tokens <= 0) return;
  usage.add({ teamId: who.teamId, apiKey: who.apiKey, at, tokens }).catch((err: unknown) => {
    log.warn('could not record token usage', { teamId: who.teamId, tokens, error: String(err) });
  });
}
