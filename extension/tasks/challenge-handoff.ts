import { browser } from 'wxt/browser';
import { type BlockPage, recognizeBlockPage } from '../../shared/block-pages/recognize-block-page';
import type { PageCapture, TaskMessage } from '../../shared/protocol/messages';
import type { TaskTab } from '../tabs/task-tab-pool';
import {
  addChallengeRequest,
  challengeRequestText,
  removeChallengeRequest,
  showChallengeTab,
  type ChallengeRequest,
} from '../ui/challenge-requests';
import { pause } from '../../shared/time/pause';

/** How often the tab is read while its person works on the check. */
const POLL_MS = 500;
const NOTIFICATION_PREFIX = 'tabhive-challenge:';

/** The challenge a capture shows, if it is one a person could pass (not a block or a rate limit). */
export function challengeIn(capture: PageCapture): BlockPage | undefined {
  if (capture.pdfBase64 !== undefined) return undefined;
  const block = recognizeBlockPage({
    statusCode: capture.statusCode,
    headers: capture.responseHeaders,
    html: capture.rawHtml,
  });
  return block?.kind === 'challenge' ? block : undefined;
}

/** The document the tab shows now, once loaded; undefined while it navigates or cannot be read. */
async function documentNow(tabId: number): Promise<string | undefined> {
  try {
    const [injection] = await browser.scripting.executeScript({
      target: { tabId },
      // Block pages say who they are in their first 64 KiB (recognize-block-page.ts).
      func: () =>
        document.readyState === 'complete' ? document.documentElement.outerHTML.slice(0, 65_536) : null,
    });
    return typeof injection?.result === 'string' ? injection.result : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the tab every POLL_MS until it shows a page that is no challenge (true), or `until` passes,
 * the tab goes away or the task is cancelled (false). Whoever passes the check (a donor's person in
 * their window, an operator through the live view) does it in the tab itself.
 */
export async function waitForClearedTab(tabId: number, until: number, signal: AbortSignal): Promise<boolean> {
  while (Date.now() < until && !signal.aborted) {
    await pause(POLL_MS, signal);
    if (
      !(await browser.tabs.get(tabId).then(
        () => true,
        () => false,
      ))
    )
      return false;
    const html = await documentNow(tabId);
    if (html !== undefined && recognizeBlockPage({ statusCode: 0, html })?.kind !== 'challenge') return true;
  }
  return false;
}

/**
 * The donor as the way past a challenge (docs/donated-browsers.md#a-challenge-the-person-passes):
 * the task's person is asked (the toolbar badge, a notification, an entry in the popup: "A task for
 * <team> needs you on <site>"), its tab is brought forward in its window, and the task waits for
 * the page to stop being a challenge while they pass it there, up to the task's
 * `challengeWaitMs` and never past its deadline. Resolves true once the tab shows a page that is
 * no challenge, false when the time ran out, the tab went away or the task was cancelled. The
 * cookie the check leaves is the person's browser's, as every cookie of a donated browser is.
 */
export async function waitForPerson({
  task,
  team,
  tab,
  challenge,
  deadline,
  signal,
  onAsked,
}: {
  task: TaskMessage;
  team: string;
  tab: TaskTab;
  challenge: BlockPage;
  deadline: number;
  signal: AbortSignal;
  /** Called once the person was asked (the badge refresh). */
  onAsked?: (() => void) | undefined;
}): Promise<boolean> {
  const until = Math.min(deadline, Date.now() + (task.spec.challengeWaitMs ?? 0));
  if (until <= Date.now() || signal.aborted) return false;
  const request: ChallengeRequest = {
    taskId: task.taskId,
    team,
    site: new URL(task.spec.url).hostname,
    vendor: challenge.vendor,
    tabId: tab.tabId,
    windowId: tab.windowId,
    since: Date.now(),
  };
  const notificationId = `${NOTIFICATION_PREFIX}${task.taskId}`;
  try {
    await addChallengeRequest(request);
    onAsked?.();
    await showChallengeTab(request);
    await browser.notifications
      .create(notificationId, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icons/128.png'),
        title: challengeRequestText(request),
        message: `${challenge.vendor} asks whether a person is there. Pass the check in the window Tabhive brought forward; the task goes on once the page shows.`,
        requireInteraction: true,
      })
      .catch(() => undefined);
    return await waitForClearedTab(tab.tabId, until, signal);
  } finally {
    await removeChallengeRequest(task.taskId);
    await browser.notifications.clear(notificationId).catch(() => false);
    onAsked?.();
  }
}

/**
 * A click on a challenge notification brings its task's tab forward. Registered once, when the
 * background worker starts (listeners must be in place before the worker's first event).
 */
export function listenToChallengeNotifications(
  find: (taskId: string) => Promise<ChallengeRequest | undefined>,
) {
  browser.notifications.onClicked.addListener((notificationId) => {
    if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return;
    void find(notificationId.slice(NOTIFICATION_PREFIX.length)).then((request) => {
      if (request !== undefined) void showChallengeTab(request);
    });
  });
}
