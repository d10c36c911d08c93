import { browser } from 'wxt/browser';

/**
 * A donated browser's task that met a challenge page and waits for its person to pass it
 * (docs/donated-browsers.md#a-challenge-the-person-passes): shown on the badge, in a notification
 * and in the popup, whose entry brings the task's tab forward.
 */
export interface ChallengeRequest {
  taskId: string;
  /** The team the task is for, as pairing named it. */
  team: string;
  /** The site's host name. */
  site: string;
  /** Who served the challenge ("Cloudflare", …). */
  vendor: string;
  tabId: number;
  windowId: number;
  /** When the person was asked (Date.now()). */
  since: number;
}

/** Kept in session storage: the popup reads it, and nothing of it outlives the browser. */
const KEY = 'challengeRequests';

export async function listChallengeRequests(): Promise<ChallengeRequest[]> {
  const items: Record<string, unknown> = await browser.storage.session.get(KEY).catch(() => ({}));
  const stored = items[KEY] as ChallengeRequest[] | undefined;
  return Array.isArray(stored) ? stored : [];
}

export async function addChallengeRequest(request: ChallengeRequest): Promise<void> {
  const others = (await listChallengeRequests()).filter((each) => each.taskId !== request.taskId);
  await browser.storage.session.set({ [KEY]: [...others, request] });
}

export async function removeChallengeRequest(taskId: string): Promise<void> {
  const left = (await listChallengeRequests()).filter((each) => each.taskId !== taskId);
  await browser.storage.session.set({ [KEY]: left }).catch(() => undefined);
}

/** The sentence the badge's title, the notification and the popup say. */
export const challengeRequestText = ({ team, site }: Pick<ChallengeRequest, 'team' | 'site'>) =>
  `A task for ${team} needs you on ${site}`;

/** Brings the task's tab and its window to the front, for the person to pass the check there. */
export async function showChallengeTab({ tabId, windowId }: Pick<ChallengeRequest, 'tabId' | 'windowId'>) {
  await browser.windows
    .update(windowId, { focused: true, drawAttention: true, state: 'normal' })
    .catch(() => undefined);
  await browser.tabs.update(tabId, { active: true }).catch(() => undefined);
}
