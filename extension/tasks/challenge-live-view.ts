import type { BlockPage } from '../../shared/block-pages/recognize-block-page';
import type { SessionCommandMessage, SessionEvent, TaskMessage } from '../../shared/protocol/messages';
import { borrowCdp } from '../debugger/cdp-session';
import { createAddressGuard, watchPeersOverCdp } from '../network/task-address-guard';
import { createLiveCommands, type LiveCommands } from '../sessions/live-commands';
import { isPageCommand } from '../sessions/session-commands';
import type { SessionRegistry, SessionSend } from '../sessions/session-registry';
import type { TaskTab } from '../tabs/task-tab-pool';
import { PageTaskError } from '../task-kit/page-task-error';
import { waitForClearedTab } from './challenge-handoff';

/** How a launched browser's page task reaches the server's live view while it waits. */
export interface ChallengeLiveView {
  sessions: SessionRegistry;
  send: SessionSend;
}

const errorOf = (err: unknown) =>
  err instanceof PageTaskError
    ? { code: err.code, message: err.message }
    : { code: 'BROWSER_ERROR' as const, message: err instanceof Error ? err.message : String(err) };

/**
 * A launched browser has no person to ask (docs/browser-control.md#a-challenge-an-operator-passes):
 * the task's tab becomes a live view target for the wait, as a session's tab is. The task is put
 * in the session registry with the live view's commands only (screencast, frame-ack, input; no
 * page commands, no CDP relay), then a `challenge` session event tells the server, which raises the
 * `page.challenge` webhook with the view's URL. The task waits up to its `challengeWaitMs` (never
 * past its deadline) for the tab to stop showing a challenge. Resolves true once it has; false
 * when the time ran out, the tab went away or the task was cancelled. The live view ends with it.
 */
export async function waitForOperator({
  task,
  tab,
  challenge,
  url,
  deadline,
  signal,
  live: { sessions, send },
}: {
  task: TaskMessage;
  tab: TaskTab;
  challenge: BlockPage;
  /** Where the tab stands (the capture's URL). */
  url: string;
  deadline: number;
  signal: AbortSignal;
  live: ChallengeLiveView;
}): Promise<boolean> {
  const until = Math.min(deadline, Date.now() + (task.spec.challengeWaitMs ?? 0));
  if (until <= Date.now() || signal.aborted) return false;
  const session = await tab.debugger();
  // The task's own view of the tab's debugger: its listeners go when the wait ends.
  const view = borrowCdp(session.cdp);
  let commands: LiveCommands | undefined;
  let unregister: (() => void) | undefined;
  try {
    const guard = await createAddressGuard(task.spec.networkPolicy);
    watchPeersOverCdp(guard, view, session.mainFrame.id);
    const emit = (event: SessionEvent) => send({ type: 'session-event', taskId: task.taskId, event });
    const live = createLiveCommands({
      tabId: tab.tabId,
      cdp: view,
      emit,
      donated: false,
      guard,
      networkPolicy: task.spec.networkPolicy,
    });
    commands = live;
    const serve = async ({ commandId, command }: SessionCommandMessage) => {
      try {
        // Only what the live view needs to show the tab and click in it.
        if (isPageCommand(command) || command.kind === 'cdp' || command.kind === 'cdp-events') {
          throw new PageTaskError('TASK_REFUSED', "a challenge's live view takes input only");
        }
        send({
          type: 'session-reply',
          taskId: task.taskId,
          commandId,
          ok: true,
          result: await live.run(command),
        });
      } catch (err) {
        send({ type: 'session-reply', taskId: task.taskId, commandId, ok: false, error: errorOf(err) });
      }
    };
    // Registered before the server hears of it, so that the view's first command finds the tab.
    unregister = sessions.add(task.taskId, { command: (message) => void serve(message), end: () => {} });
    emit({ kind: 'challenge', url, vendor: challenge.vendor, waitMs: until - Date.now() });
    return await waitForClearedTab(tab.tabId, until, signal);
  } finally {
    unregister?.();
    await commands?.stop().catch(() => undefined);
    view.release();
  }
}
