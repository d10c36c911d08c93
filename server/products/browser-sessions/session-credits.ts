/** What a browser session costs: this many credits per started minute it ran. */
export const CREDITS_PER_SESSION_MINUTE = 2;

/**
 * A session's price, booked once when it ends: every started minute counts, so a session that
 * ran 61 s costs two minutes; one that never got a tab (it failed to start) costs nothing.
 */
export function sessionCredits(durationMs: number): number {
  if (durationMs <= 0) return 0;
  return Math.ceil(durationMs / 60_000) * CREDITS_PER_SESSION_MINUTE;
}
