import { browser } from 'wxt/browser';

/** Desktop viewport of task windows; Firecrawl's browser engines render at this size too. */
export const TASK_WINDOW_WIDTH = 1920;
export const TASK_WINDOW_HEIGHT = 1080;

/**
 * Opens the window a task works in: one unfocused window per task, whose only tab is therefore the
 * active tab of its window. A background tab in a shared window is "hidden" to Chromium: its timers
 * are throttled to once a second, animation frames stop, and screenshots of it stall, so a page
 * that renders its content from a timer would be captured half-done.
 */
export async function openTaskWindow(): Promise<{ windowId: number; tabId: number }> {
  const created = await browser.windows.create({
    url: 'about:blank',
    focused: false,
    type: 'normal',
    width: TASK_WINDOW_WIDTH,
    height: TASK_WINDOW_HEIGHT,
  });
  const tabId = created?.tabs?.[0]?.id;
  if (created?.id === undefined || tabId === undefined) throw new Error('could not open a task window');
  return { windowId: created.id, tabId };
}

export async function closeTaskWindow(windowId: number): Promise<void> {
  await browser.windows.remove(windowId).catch(() => undefined);
}
