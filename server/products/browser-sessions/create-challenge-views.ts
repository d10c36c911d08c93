import { type BrowserHub, TaskError } from '../../browsers/hub';
import type { PageChallenge } from '../../scrape';
import { createLiveSession, type LiveSessionControl } from './create-live-session';
import type { LiveSessionDirectory } from './live-session';
import { liveViewUrls } from './live-view-urls';

/** A challenge's live view, open while its task waits. */
export interface ChallengeView {
  liveViewUrl: string;
  interactiveLiveViewUrl: string;
  /** Ends the view (its viewers are told the wait is over). Idempotent. */
  close(): void;
}

/**
 * Live views of page tasks that wait on a challenge page (docs/browser-control.md#a-challenge-an-operator-passes):
 * the page task is no browser session, but while it waits its tab takes the live view's commands
 * (extension/tasks/challenge-live-view.ts), so the session live view (`/live/:token`, its socket,
 * screencast and input) serves it through a LiveSession whose id is the task's. Its tokens are
 * its own, and it lives only as long as the wait; it offers no CDP relay (`get` finds none).
 */
export function createChallengeViews({
  hub,
  publicUrl,
}: {
  hub: Pick<BrowserHub, 'sendSession' | 'onSessionMessage'>;
  /** The API's base (PUBLIC_URL or the listening address). */
  publicUrl: string;
}) {
  const open = new Map<string, LiveSessionControl>();
  const byToken = new Map<string, { control: LiveSessionControl; interactive: boolean }>();
  const stopListening = hub.onSessionMessage((message) => {
    const control = open.get(message.taskId);
    if (control === undefined) return;
    // A challenge event is the task's own announcement, not the view's business.
    if (message.type === 'session-event' && message.event.kind === 'challenge') return;
    control.deliver(message);
  });

  const directory: LiveSessionDirectory = {
    get: () => undefined,
    byViewToken(token) {
      const found = byToken.get(token);
      return found === undefined || found.control.closed
        ? undefined
        : { session: found.control.session, interactive: found.interactive };
    },
  };

  return {
    directory,
    open(challenge: PageChallenge): ChallengeView {
      open.get(challenge.taskId)?.close(new TaskError('TASK_CANCELLED', 'the challenge was met again'));
      const control = createLiveSession({
        id: challenge.taskId,
        teamId: challenge.teamId,
        browserClass: challenge.browserClass,
        donated: false,
        expiresAt: challenge.expiresAt,
        send: (message) => hub.sendSession(message),
        // The wait's length is the task's; watching does not extend it.
        onActivity: () => {},
      });
      const { session } = control;
      open.set(challenge.taskId, control);
      byToken.set(session.liveViewToken, { control, interactive: false });
      byToken.set(session.interactiveToken, { control, interactive: true });
      const { liveViewUrl, interactiveLiveViewUrl } = liveViewUrls(publicUrl, session);
      return {
        liveViewUrl,
        interactiveLiveViewUrl,
        close() {
          control.close(new TaskError('TASK_CANCELLED', 'the challenge wait is over'));
          byToken.delete(session.liveViewToken);
          byToken.delete(session.interactiveToken);
          if (open.get(challenge.taskId) === control) open.delete(challenge.taskId);
        },
      };
    },
    stop() {
      stopListening();
      for (const control of open.values()) control.close(new TaskError('TASK_CANCELLED', 'the server stops'));
      open.clear();
      byToken.clear();
    },
  };
}

export type ChallengeViews = ReturnType<typeof createChallengeViews>;

/** The live view finds both browser sessions and challenge views; the CDP relay only sessions. */
export function joinLiveSessionDirectories(...directories: LiveSessionDirectory[]): LiveSessionDirectory {
  return {
    get: (id, teamId) => directories.map((each) => each.get(id, teamId)).find((found) => found !== undefined),
    byViewToken: (token) =>
      directories.map((each) => each.byViewToken(token)).find((found) => found !== undefined),
  };
}
