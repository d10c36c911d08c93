import { browser } from 'wxt/browser';
import type { BrowserStatus } from '../../shared/protocol/messages';
import { countSessionRules } from '../network/task-network-rules';
import type { TaskTabPool } from '../tabs/task-tab-pool';

interface DebuggerTarget {
  type: string;
  attached: boolean;
}

/**
 * Counts what tasks hold in this browser: windows (the launch window is one), tabs with a debugger
 * attached, and DNR session rules. Reported to the server so that leaks show from outside. What
 * idle pooled tabs hold (a window and address rules each) is counted apart,
 * as `pooledTabs`: a leak is what neither a task nor the pool accounts for.
 */
export async function readBrowserStatus(runningTasks: number, pool: TaskTabPool): Promise<BrowserStatus> {
  const held = pool.idleHoldings();
  const debuggerApi = (
    globalThis as unknown as { chrome: { debugger: { getTargets(): Promise<DebuggerTarget[]> } } }
  ).chrome.debugger;
  const [windows, targets, sessionRules] = await Promise.all([
    browser.windows.getAll(),
    debuggerApi.getTargets(),
    countSessionRules(held.ruleIds),
  ]);
  const pooledWindows = new Set(held.windowIds);
  const pooledTabs = windows.filter(
    (window) => window.id !== undefined && pooledWindows.has(window.id),
  ).length;
  return {
    runningTasks,
    windows: windows.length - pooledTabs,
    // Idle pooled tabs hold no debugger session: only a task that needs one attaches it.
    debuggerSessions: targets.filter((target) => target.type === 'page' && target.attached).length,
    sessionRules,
    pooledTabs,
  };
}
