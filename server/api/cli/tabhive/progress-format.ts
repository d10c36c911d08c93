/** Pure pieces of the crawl/batch progress display: rate, ETA and the line the bar shows. */

/** `7s`, `1m 05s`, `2h 03m`; `--` when there is no estimate. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '--';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m ${String(whole % 60).padStart(2, '0')}s`;
  const hours = Math.floor(minutes / 60);
  return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** Pages per second with one decimal (two below 1). */
export function formatRate(pagesPerSecond: number | undefined): string {
  if (pagesPerSecond === undefined || !Number.isFinite(pagesPerSecond)) return '--';
  return pagesPerSecond < 1 ? pagesPerSecond.toFixed(2) : pagesPerSecond.toFixed(1);
}

/** How far back the rate looks: long enough to smooth bursts, short enough to follow a change. */
export const RATE_WINDOW_MS = 15_000;

/**
 * Pages per second over the last RATE_WINDOW_MS, from (time, pages done) samples. Starting from a
 * count other than zero (a resumed job) counts only what was done while watching.
 */
export function createRateMeter(windowMs = RATE_WINDOW_MS) {
  const samples: { at: number; done: number }[] = [];
  return {
    add(at: number, done: number) {
      samples.push({ at, done });
      // Keep one sample older than the window, so the window is always covered.
      while (samples.length > 2 && (samples[1]?.at ?? at) <= at - windowMs) samples.shift();
    },
    /** undefined until two samples at least a second apart exist. */
    rate(): number | undefined {
      const first = samples[0];
      const last = samples[samples.length - 1];
      if (first === undefined || last === undefined || last.at - first.at < 1000) return undefined;
      return Math.max(0, last.done - first.done) / ((last.at - first.at) / 1000);
    },
  };
}

/** Seconds left at `rate` for the pages not done yet; undefined when unknown or stalled. */
export function estimateSeconds(done: number, total: number, rate: number | undefined): number | undefined {
  if (total <= done) return 0;
  if (rate === undefined || rate <= 0) return undefined;
  return (total - done) / rate;
}

export interface ProgressState {
  label: string;
  /** Pages done (failed ones not among them). */
  done: number;
  /** Every page, the failed ones among them. */
  total: number;
  /** Pages that failed; none when absent. */
  failed?: number;
  rate: number | undefined;
  status: string;
}

/** What follows the bar on a terminal, and the whole line when the output is not a terminal. */
export function progressText({ done, total, failed = 0, rate, status }: ProgressState): string {
  return [
    `${done}/${total} pages${failed === 0 ? '' : `, ${failed} failed`}`,
    `${formatRate(rate)} pages/s`,
    `ETA ${formatDuration(status === 'scraping' ? estimateSeconds(done + failed, total, rate) : 0)}`,
    status,
  ].join(' | ');
}
