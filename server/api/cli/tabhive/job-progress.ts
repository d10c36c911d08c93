import cliProgress from 'cli-progress';
import { createRateMeter, progressText } from './progress-format';

/** How often a line is printed when the output is not a terminal (a CI log, a file). */
export const PLAIN_PROGRESS_INTERVAL_MS = 5_000;

export interface JobProgress {
  /** `total` counts every page, the failed ones among them; `failed` of them failed. */
  update(done: number, total: number, status: string, failed?: number): void;
  stop(): void;
}

/**
 * The progress of a crawl or batch job on stderr, drawn by cli-progress: a bar with pages
 * done/total, pages/s and an ETA on a terminal; on anything else (a pipe, a file, a CI log) plain
 * lines without escape codes, one every PLAIN_PROGRESS_INTERVAL_MS and one at the end.
 */
export function createJobProgress({
  label,
  stream = process.stderr,
  now = Date.now,
}: {
  label: string;
  stream?: NodeJS.WriteStream;
  now?: () => number;
}): JobProgress {
  const tty = stream.isTTY === true;
  const meter = createRateMeter();
  let state = { done: 0, total: 0, failed: 0, rate: undefined as number | undefined, status: 'scraping' };
  const bar = new cliProgress.SingleBar({
    stream,
    noTTYOutput: true,
    notTTYSchedule: PLAIN_PROGRESS_INTERVAL_MS,
    hideCursor: tty,
    // Off a terminal "clear" is a no-op, and it spares the blank line cli-progress adds at the end.
    clearOnComplete: !tty,
    gracefulExit: false,
    format: (options, params) => {
      const text = `${label} ${progressText({ label, ...state })}`;
      return tty ? `${cliProgress.Format.BarFormat(params.progress, options)} ${text}` : text;
    },
  });
  let started = false;

  return {
    update(done, total, status, failed = 0) {
      meter.add(now(), done);
      state = { done, total, failed, rate: meter.rate(), status };
      if (!started) {
        started = true;
        bar.start(Math.max(total, 1), done + failed);
        return;
      }
      bar.setTotal(Math.max(total, 1));
      bar.update(done + failed);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
