import type { ResultMessage, SessionCommandMessage, TaskMessage } from '../../shared/protocol/messages';
import { createSessionRegistry, type SessionSend } from '../sessions/session-registry';
import { runSessionTask } from './session-task';
import type { BrowserStateKeeper } from '../browser-state/browser-state-keeper';
import type { StateWitness } from '../browser-state/state-witness';
import { extensionApiCalls } from './count-api-calls';
import { fitResult } from './fit-result';
import { PageTaskError } from '../task-kit/page-task-error';
import { runPageTask } from './run-page-task';
import type { TaskTabPool } from '../tabs/task-tab-pool';

/**
 * Runs the server's tasks, each with its own AbortController so that a `cancel` stops the waits
 * (the tab is closed by the task's own clean-up), and turns every outcome into a `result`.
 */
export function createTaskRunner({
  pool,
  state,
  reply,
  sendSession,
  afterTask,
}: {
  /** Where tasks get their tabs. */
  pool: TaskTabPool;
  /** Whose cookies and storage the browser holds; a task runs only in its own key's. */
  state: BrowserStateKeeper;
  reply(message: ResultMessage): void;
  /** A session task's replies to its commands and its events. */
  sendSession: SessionSend;
  /** Called once a task has cleaned up after itself, whatever its outcome. */
  afterTask(): void;
}) {
  const running = new Map<string, AbortController>();
  const sessions = createSessionRegistry({ send: sendSession });

  return {
    start(
      task: TaskMessage,
      {
        stateKey,
        ...options
      }: {
        fenceDomains?: readonly string[] | undefined;
        /** A donated browser's person, asked to pass a challenge page (challenge-handoff.ts). */
        askPerson?: { team: string; onAsked?: () => void } | undefined;
        /** A launched browser's witness of its state, for page tasks to report on (run-page-task.ts). */
        stateWitness?: StateWitness | undefined;
        /** The task's state key in a launched browser; undefined in a donated one (never wiped). */
        stateKey?: string | undefined;
      } = {},
    ) {
      // The same task may come again after a reconnect; a live run of it keeps going.
      if (running.get(task.taskId)?.signal.aborted === false) return;
      const controller = new AbortController();
      running.set(task.taskId, controller);
      const entered = state.enter(stateKey);
      const started = entered.then(() =>
        task.spec.session === undefined
          ? runPageTask(task, controller.signal, {
              ...options,
              pool,
              // A launched browser's challenge page is shown to an operator through the live view;
              // a donated one's only ever to its own person (fenceDomains marks it).
              challengeLiveView:
                options.fenceDomains === undefined && options.askPerson === undefined
                  ? { sessions, send: sendSession }
                  : undefined,
            })
          : runSessionTask(task, controller.signal, { ...options, pool, sessions, send: sendSession }),
      );
      const run = {
        result: started.then((page) => page.result),
        // Leaves its key once the tab is back, so that a wipe never runs under a live task.
        cleanedUp: entered.then(
          (leave) => started.then((page) => page.cleanedUp).finally(leave),
          () => undefined,
        ),
      };
      run.result
        .then((capture) =>
          reply(
            fitResult({
              type: 'result',
              taskId: task.taskId,
              ok: true,
              capture:
                capture.timings === undefined
                  ? capture
                  : { ...capture, timings: { ...capture.timings, finishedAt: Date.now() } },
              apiCalls: extensionApiCalls(),
            }),
          ),
        )
        .catch((err: unknown) => {
          if (controller.signal.aborted) return;
          const error =
            err instanceof PageTaskError
              ? { code: err.code, message: err.message }
              : { code: 'BROWSER_ERROR' as const, message: err instanceof Error ? err.message : String(err) };
          reply({ type: 'result', taskId: task.taskId, ok: false, error, apiCalls: extensionApiCalls() });
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
    /** A command for one of the session tasks running here. */
    sessionCommand: (message: SessionCommandMessage) => sessions.command(message),
    /** The server ends a session task: its result follows. */
    sessionEnd: (taskId: string) => sessions.end(taskId),
    count: () => running.size,
    /** Stops every task; used when the connection they belong to is gone. */
    cancelAll() {
      for (const controller of running.values()) controller.abort();
    },
  };
}
