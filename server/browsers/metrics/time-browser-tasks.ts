import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import type { RunOptions } from '../hub';
import type { TabhiveMetrics } from '../../platform/metrics';

type RunTask = (spec: PageTaskSpec, options: RunOptions) => Promise<PageCapture>;

/**
 * The hub's runTask, timed from the call (the wait for a free tab included) to its result into
 * `tabhive_browser_task_duration_seconds`, and marking the scrape it serves as a browser's.
 */
export function timeBrowserTasks(
  runTask: RunTask,
  metrics: Pick<TabhiveMetrics, 'browserTaskDuration' | 'engines'>,
): RunTask {
  return async (spec, options) => {
    metrics.engines.mark('browser');
    const stop = metrics.browserTaskDuration.startTimer({ class: options.browserClass ?? 'basic' });
    try {
      const capture = await runTask(spec, options);
      stop({ outcome: 'ok' });
      return capture;
    } catch (err) {
      stop({ outcome: 'error' });
      throw err;
    }
  };
}
