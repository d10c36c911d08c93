import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import type { RunOptions } from '../hub';
import type { TabhiveMetrics } from '../../platform/metrics';

type RunTask = (spec: PageTaskSpec, options: RunOptions) => Promise<PageCapture>;

/**
 * The hub's runTask, timed from the call (the wait for a free tab included) to its result into
 * `tabhive_browser_task_duration_seconds`, and marking the scrape it serves as a browser's. The
 * page's stages go to `tabhive_page_stage_seconds`: `queue` from the call to a tab taking the task,
 * the browser's own `navigate`, `settle` and `capture`, and `transfer` from the browser's clock as
 * the result left to its arrival here (one machine's clock for launched browsers; a node's clock
 * may differ, so a transfer that would be negative is not counted). The timings are the metrics'
 * only: the capture goes on without them.
 */
export function timeBrowserTasks(
  runTask: RunTask,
  metrics: Pick<TabhiveMetrics, 'browserTaskDuration' | 'engines' | 'pageStageDuration'>,
): RunTask {
  const observe = (stage: string, ms: number) => metrics.pageStageDuration.observe({ stage }, ms / 1000);
  return async (spec, options) => {
    metrics.engines.mark('browser');
    const stop = metrics.browserTaskDuration.startTimer({ class: options.browserClass ?? 'basic' });
    const called = Date.now();
    const onStarted = options.onStarted;
    try {
      const { timings, ...capture } = await runTask(spec, {
        ...options,
        onStarted: () => {
          observe('queue', Date.now() - called);
          onStarted?.();
        },
      });
      stop({ outcome: 'ok' });
      if (timings !== undefined) {
        observe('navigate', timings.navigateMs);
        observe('settle', timings.settleMs);
        observe('capture', timings.captureMs);
        const transferMs = Date.now() - timings.finishedAt;
        if (transferMs >= 0) observe('transfer', transferMs);
      }
      return capture;
    } catch (err) {
      stop({ outcome: 'error' });
      throw err;
    }
  };
}
