import type { ResultMessage, TaskMessage } from '../../shared/protocol/messages';
import { fitResult } from './fit-result';
import { PageTaskError } from './page-task-error';
import { runPageTask } from './run-page-task';
import type { TaskTabPool } from './task-tab-pool';

/**
 * Runs the server's tasks, each with its own AbortController so that a `cancel` stops the waits
 * (the tab is closed by the task's own clean-up), and turns every outcome into a `result`.
 */
export function createTaskRunner({
  pool,
  reply,
  afterTask,
}: {
  /** Where tasks get their tabs. */
  pool: TaskTabPool;
  reply(message: ResultMessage): void;
  /** Called once a task has cleaned up after itself, whatever its outcome. */
  afterTask(): void;
}) {
  const running = new Map<string, AbortController>();

  return {
    start(task: TaskMessage, options: { fenceDomains?: readonly string[] | undefined } = {}) {
      // The same task may come again after a reconnect; a live run of it keeps going.
      if (running.get(task.taskId)?.signal.aborted === false) return;
      const controller = new AbortController();
      running.set(task.taskId, controller);
      const run = runPageTask(task, controller.signal, { ...options, pool });
      run.result
        .then((capture) => reply(fitResult({ type: 'result', taskId: task.taskId, ok: true, capture })))
        .catch((err: unknown) => {
          if (controller.signal.aborted) return;
          const error =
            err instanceof PageTaskError
              ? { code: err.code, message: err.message }
              : { code: 'BROWSER_ERROR' as const, message: err instanceof Error ? err.message : String(err) };
          reply({ type: 'result', taskId: task.taskId, ok: false, error });
        });
      // A task counts as running until its clean-up is done, so that status reports add up.
      void run.cleanedUp.finally(() => {
        if (running.get(task.taskId) === controller) running.delete(task.taskId);
        afterTask();
      });
    },
    cancel(taskId: string) {
      running.get(taskId)?.abort();
    },
    count: () => running.size,
    /** Stops every task; used when the connection they belong to is gone. */
    cancelAll() {
      for (const controller of running.values()) controller.abort();
    },
  };
}
