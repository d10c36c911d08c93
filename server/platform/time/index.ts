/** Small time helpers. */
export { MAX_TIMER_MS, clampTimerMs } from './clamp-timer-ms';
