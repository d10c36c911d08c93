import { randomUUID } from 'node:crypto';
import type {
  PageCapture,
  PageTaskSpec,
  SessionEventMessage,
  SessionReplyMessage,
} from '../../../shared/protocol/messages';
import type { RunOptions } from '../../browsers/hub';
import type { PageChallengeHandler, TaskChallengeSignals } from '../types';

type RunTask = (spec: PageTaskSpec, options: RunOptions) => Promise<PageCapture>;

/**
 * The browsers' `challenge` events by task id, from the hub's session messages (one listener for
 * all tasks, so that a screencast's frames do not run through one check per watched task).
 */
export function createTaskChallengeSignals(
  onSessionMessage: (listener: (message: SessionReplyMessage | SessionEventMessage) => void) => () => void,
): TaskChallengeSignals {
  const watchers = new Map<string, Parameters<TaskChallengeSignals['watch']>[1]>();
  onSessionMessage((message) => {
    if (message.type !== 'session-event' || message.event.kind !== 'challenge') return;
    const { url, vendor, waitMs } = message.event;
    watchers.get(message.taskId)?.({ url, vendor, waitMs });
  });
  return {
    watch(taskId, listener) {
      watchers.set(taskId, listener);
      return () => {
        if (watchers.get(taskId) === listener) watchers.delete(taskId);
      };
    },
  };
}

/**
 * Page tasks that wait `waitMs` on a challenge page for an operator, who hears of it through
 * `onChallenge` (docs/browser-control.md#a-challenge-an-operator-passes). Each attempt (a proxy
 * retry is one) is a task of its own id, watched while it runs; the handler's clean-up runs once
 * the task is over.
 */
export function watchChallenges(
  runTask: RunTask,
  {
    signals,
    onChallenge,
    waitMs,
    teamId,
  }: { signals: TaskChallengeSignals; onChallenge: PageChallengeHandler; waitMs: number; teamId: string },
): RunTask {
  return async (spec, options) => {
    const taskId = options.taskId ?? randomUUID();
    let ended: (() => void) | undefined;
    const stop = signals.watch(taskId, (event) => {
      if (ended !== undefined) return;
      ended = onChallenge({
        taskId,
        teamId,
        url: event.url,
        vendor: event.vendor,
        browserClass: options.browserClass ?? 'basic',
        expiresAt: new Date(Date.now() + event.waitMs),
      });
    });
    try {
      return await runTask({ ...spec, challengeWaitMs: waitMs }, { ...options, taskId });
    } finally {
      stop();
      ended?.();
    }
  };
}
