import type { SettleOptions } from '../page/capture-page';

/**
 * How long the DOM must have had no change before a page is captured. Short: a page that renders
 * from a fetch changes within a frame or two of the response, and a page without scripts is not
 * made to wait at all (capture-page.ts). Placeholders ("Loading…") wait for their change instead.
 */
export const SETTLE_QUIET_MS = 150;
/** After `load`, the longest a page is waited for: a page that never stops changing is taken then. */
export const SETTLE_CAP_MS = 3_000;
/** Between actions: the page draws a frame and its DOM rests this long before the next action. */
export const ACTION_QUIET_MS = 100;
/** Between actions, the longest wait for that rest (a ticking page never rests). */
export const ACTION_SETTLE_CAP_MS = 1_000;

/** Settling before a capture, within what is left of the task's budget. */
export function captureSettle(deadline: number, extraWaitMs: number): SettleOptions {
  const left = Math.max(0, deadline - Date.now() - extraWaitMs);
  return { quietMs: SETTLE_QUIET_MS, capMs: Math.min(SETTLE_CAP_MS, left), extraWaitMs };
}

/** Settling after an action. */
export function actionSettle(deadline: number): SettleOptions {
  return {
    quietMs: ACTION_QUIET_MS,
    capMs: Math.min(ACTION_SETTLE_CAP_MS, Math.max(0, deadline - Date.now())),
    extraWaitMs: 0,
  };
}
