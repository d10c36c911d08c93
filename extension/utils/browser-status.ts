import { browser } from 'wxt/browser';
import type { BrowserStatus } from '../../shared/protocol/messages';
import { countSessionRules } from './task-network-rules';

interface DebuggerTarget {
  type: string;
  attached: boolean;
}

/**
 * Counts what tasks hold in this browser: windows (the launch window is one), tabs with a debugger
 * attached, and DNR session rules. Reported to the server so that leaks show from outside.
 */
export async function readBrowserStatus(runningTasks: number): Promise<BrowserStatus> {
  const debuggerApi = (
    globalThis as unknown as { chrome: { debugger: { getTargets(): Promise<DebuggerTarget[]> } } }
  ).chrome.debugger;
  const [windows, targets, sessionRules] = await Promise.all([
    browser.windows.getAll(),
    debuggerApi.getTargets(),
    countSessionRules(),
  ]);
  return {
    runningTasks,
    windows: windows.length,
    debuggerSessions: targets.filter((target) => target.type === 'page' && target.attached).length,
    sessionRules,
  };
}
