import { browser } from 'wxt/browser';
import { challengeRequestText, listChallengeRequests } from './challenge-requests';
import type { ConnectionState } from './ui-messages';

/** Text and colour per state; a working browser shows how many tasks it runs. */
export function badgeFor(state: ConnectionState, runningTasks: number): { text: string; color: string } {
  switch (state) {
    case 'unpaired':
      return { text: '', color: '#6b7280' };
    case 'connecting':
      return { text: '…', color: '#d97706' };
    case 'disconnected':
      return { text: 'off', color: '#dc2626' };
    case 'idle':
      return { text: 'on', color: '#16a34a' };
    case 'working':
      return { text: String(Math.min(runningTasks, 99)), color: '#2563eb' };
  }
}

/** What the badge shows while a task waits for its person to pass a challenge (challenge-requests.ts). */
const NEEDS_YOU = { text: '!', color: '#d97706' };

/**
 * Shows the connection state on the toolbar icon, so a donor sees at a glance what it is doing;
 * or, while a task waits for them on a challenge page, that it needs them.
 */
export async function showBadge(state: ConnectionState, runningTasks: number): Promise<void> {
  const [waiting] = await listChallengeRequests();
  if (waiting !== undefined) {
    await Promise.all([
      browser.action.setBadgeText({ text: NEEDS_YOU.text }),
      browser.action.setBadgeBackgroundColor({ color: NEEDS_YOU.color }),
      browser.action.setTitle({ title: `Tabhive: ${challengeRequestText(waiting)}` }),
    ]).catch(() => undefined);
    return;
  }
  const { text, color } = badgeFor(state, runningTasks);
  await Promise.all([
    browser.action.setBadgeText({ text }),
    browser.action.setBadgeBackgroundColor({ color }),
    browser.action.setTitle({
      title: `Tabhive: ${state === 'working' ? `working (${runningTasks})` : state}`,
    }),
  ]).catch(() => undefined);
}
