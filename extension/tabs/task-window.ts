import { browser } from 'wxt/browser';
import { isLaunchedBrowser } from '../hub/hub-settings';

/** Desktop viewport of task windows; Firecrawl's browser engines render at this size too. */
export const TASK_WINDOW_WIDTH = 1920;
export const TASK_WINDOW_HEIGHT = 1080;

/**
 * Opens the window a task works in: one unfocused window per task, whose only tab is therefore the
 * active tab of its window. A background tab in a shared window is "hidden" to Chromium: its timers
 * are throttled to once a second, animation frames stop, and screenshots of it stall, so a page
 * that renders its content from a timer would be captured half-done.
 *
 * A popup window, not a normal one: it has no tab strip or toolbar, whose drawing (the loading
 * indicator, the address, the title, at every navigation) is done on the browser's main thread,
 * the busiest thread of a crawl. In a traced crawl that drawing was a quarter of the thread's
 * work with normal windows; popups took a tenth off the thread's CPU.
 *
 * Except in a launched browser, where a page would otherwise see a window with no browser around it (an extension's popup has no toolbar, so outerHeight equals innerHeight, which
 * no person's window shows): there task windows are normal windows
 * (docs/browser-control.md#bot-detection).
 */
export async function openTaskWindow(): Promise<{ windowId: number; tabId: number }> {
  const created = await browser.windows.create({
    url: 'about:blank',
    focused: false,
    type: (await isLaunchedBrowser()) ? 'normal' : 'popup',
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
