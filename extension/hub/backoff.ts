export const BACKOFF_INITIAL_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential from 1 s, capped at 30 s, with
 * "full jitter" (a uniform draw below the cap) so that many browsers that lost the same server do
 * not all come back in the same instant.
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** Math.max(0, attempt));
  return Math.round(BACKOFF_INITIAL_MS / 2 + random() * (ceiling - BACKOFF_INITIAL_MS / 2));
}
