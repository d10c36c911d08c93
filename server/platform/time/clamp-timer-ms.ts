/** setTimeout's longest delay: Node fires a longer one at once (with a TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A deadline in ms that every timer reads as one: at least 1, because undici and others read 0 as
 * "no timeout at all" (a deadline that ran out must not become none), at most MAX_TIMER_MS, and
 * 1 for anything that is not a number.
 */
export function clampTimerMs(ms: number): number {
  if (!(ms >= 1)) return 1;
  return Math.min(Math.ceil(ms), MAX_TIMER_MS);
}
