import type { NetworkPolicy } from '../../shared/url/network-policy';
import { browser } from 'wxt/browser';
import { attachCdp, type CdpSession } from '../debugger/cdp-session';
import { COOKIE_BANNER_SCRIPT } from '../debugger/emulation-commands';
import { addressRuleCount, buildAddressRules } from '../network/task-address-rules';
import { taskJournal } from '../task-kit/task-journal';
import { addTaskRules, allocateRuleIds, removeTaskRules } from '../network/task-network-rules';
import { closeTaskWindow, openTaskWindow } from './task-window';

/** A tab's debugger session, with what the debugger path needs to know of its main frame. */
export interface TabDebugger {
  readonly cdp: CdpSession;
  /** The main frame's id and URL now, kept up to date from the session's frame events. */
  readonly mainFrame: { readonly id: string; readonly url: string };
  /** Makes the tab run (or stop running) the cookie-banner script in every new document. */
  setCookieBannerScript(wanted: boolean): Promise<void>;
}

/**
 * A task window's only tab, set up once: the URL policy's address rules in place for the tab.
 * Opening a window and adding rules cost about 0.6 s of a 1.6 s task when done per task
 * (measured in a crawl at three tabs); a pooled tab pays them once. The debugger is attached only
 * for a task that needs it (debugger()) and detached when that task gives the tab back: a plain
 * page costs the browser two calls (navigate, capture) instead of a debugger session's events.
 */
export interface TaskTab {
  readonly windowId: number;
  readonly tabId: number;
  /** The last URL a task of this tab asked for or captured ('about:blank' for a new tab). */
  url: string;
  /** Whether the tab is kept for other tasks when this one leaves it as it found it. */
  readonly pooled: boolean;
  /** The tab's debugger session, attached (Page, Network, lifecycle events on) at the first call. */
  debugger(): Promise<TabDebugger>;
}

interface FrameInfo {
  id: string;
  url: string;
}

interface PooledTab extends TaskTab {
  /** The address rules the tab has, and the policy they were made for. */
  addressRules: { policyKey: string; ruleIds: number[] } | undefined;
  /** The debugger session of the task holding the tab, if it needed one. */
  attached: Promise<TabDebugger> | undefined;
  uses: number;
  /** The tab or its window was closed by something else than the pool. */
  ended: boolean;
  /** Resets the tab to about:blank once it has been idle long enough. */
  resetTimer: ReturnType<typeof setTimeout> | undefined;
  /** A task has the tab (from acquire to release). */
  inTask: boolean;
  /** The pool's generation the tab was opened in; a tab of an earlier one is never handed out again. */
  generation: number;
}

/**
 * A pooled tab goes back to a fresh window after this many tasks, so that what a long-lived
 * renderer accumulates (history, caches of sites it will not see again, leaks) stays bounded.
 */
export const TASKS_PER_POOLED_TAB = 50;
/**
 * Idle tabs kept until the server says how many tasks it sends at once (its `welcome`): beyond
 * that many, a finished task's tab is closed instead of kept.
 */
export const DEFAULT_MAX_IDLE_TABS = 4;
/** What the pool's own detach says, as opposed to a session ended by a closed tab. */
const DETACHED_BY_POOL = 'released by its task';
/** An idle tab shows about:blank after this long without a task. */
export const IDLE_RESET_MS = 5_000;

const policyKeyOf = (policy: NetworkPolicy | undefined) => JSON.stringify(policy ?? null);

/**
 * Warm task tabs of a launched browser. A launched browser's every tab is a task's, so a tab can
 * serve task after task (park() says what it shows in between). Only tasks that leave no state
 * behind return their tab (no emulation, no actions, nothing failed); any other task's tab is
 * closed, and so is every tab of a donated browser, whose windows must not linger in a person's
 * browser.
 *
 * The tabs stay visible (each is the active tab of its own window): a background tab is throttled
 * and would capture timer-driven pages half-done (task-window.ts).
 */
export function createTaskTabPool({ keepTabs }: { keepTabs: () => Promise<boolean> }) {
  const idle: PooledTab[] = [];
  let maxIdle = DEFAULT_MAX_IDLE_TABS;
  /** Every tab the pool has handed out and not closed: idle or in a task. */
  const live = new Map<number, PooledTab>();
  /** Bumped by retire(): tabs opened before hold a previous owner's pages and session storage. */
  let generation = 0;
  // A tab closed by something else than the pool (its window closed) is never handed out again.
  browser.tabs.onRemoved.addListener((tabId) => {
    for (const tab of live.values()) if (tab.tabId === tabId) tab.ended = true;
  });

  async function open(pooled: boolean): Promise<PooledTab> {
    const { windowId, tabId } = await openTaskWindow();
    // Journalled at once, so that a worker that dies now still has the window closed at restart.
    await taskJournal.record(taskJournal.windowKey(windowId), { windowId });
    const tab: PooledTab = {
      windowId,
      tabId,
      url: 'about:blank',
      pooled,
      addressRules: undefined,
      attached: undefined,
      uses: 0,
      ended: false,
      resetTimer: undefined,
      inTask: false,
      generation,
      debugger() {
        if (tab.attached !== undefined) return tab.attached;
        const attaching = attachDebugger(tab).catch((err: unknown) => {
          tab.attached = undefined;
          throw err;
        });
        tab.attached = attaching;
        // Ended by Chromium (the tab closed, or a PDF viewer took the frame): the next call
        // attaches anew; a closed tab is marked ended by tabs.onRemoved.
        void attaching.then(
          ({ cdp }) =>
            cdp.detached.then((reason) => {
              if (reason !== DETACHED_BY_POOL && tab.attached === attaching) tab.attached = undefined;
            }),
          () => undefined,
        );
        return attaching;
      },
    };
    live.set(windowId, tab);
    return tab;
  }

  async function attachDebugger(tab: PooledTab): Promise<TabDebugger> {
    const cdp = await attachCdp(tab.tabId);
    try {
      await Promise.all([
        cdp.send('Page.enable'),
        cdp.send('Network.enable'),
        cdp.send('Page.setLifecycleEventsEnabled', { enabled: true }),
      ]);
      const { frameTree } = await cdp.send<{ frameTree: { frame: FrameInfo } }>('Page.getFrameTree');
      let bannerScriptId: string | undefined;
      const session: TabDebugger = {
        cdp,
        mainFrame: { id: frameTree.frame.id, url: frameTree.frame.url },
        async setCookieBannerScript(wanted) {
          if (wanted && bannerScriptId === undefined) {
            const { identifier } = await cdp.send<{ identifier: string }>(
              COOKIE_BANNER_SCRIPT.method,
              COOKIE_BANNER_SCRIPT.params,
            );
            bannerScriptId = identifier;
          } else if (!wanted && bannerScriptId !== undefined) {
            await cdp.send('Page.removeScriptToEvaluateOnNewDocument', { identifier: bannerScriptId });
            bannerScriptId = undefined;
          }
        },
      };
      cdp.onEvent((method, params) => {
        const frame = params.frame as (FrameInfo & { parentId?: string }) | undefined;
        if (method === 'Page.frameNavigated' && frame !== undefined && frame.parentId === undefined) {
          (session as { mainFrame: FrameInfo }).mainFrame = { id: frame.id, url: frame.url };
          tab.url = frame.url;
        }
      });
      return session;
    } catch (err) {
      await cdp.detach();
      throw err;
    }
  }

  /** Ends the debugger session a task needed; emulation and injected scripts end with it. */
  async function detachDebugger(tab: PooledTab): Promise<void> {
    const attached = tab.attached;
    tab.attached = undefined;
    if (attached === undefined) return;
    const session = await attached.catch(() => undefined);
    await session?.cdp.detach(DETACHED_BY_POOL);
  }

  async function close(tab: PooledTab): Promise<void> {
    clearTimeout(tab.resetTimer);
    live.delete(tab.windowId);
    await detachDebugger(tab);
    await closeTaskWindow(tab.windowId);
    if (tab.addressRules !== undefined)
      await removeTaskRules(tab.addressRules.ruleIds).catch(() => undefined);
    await taskJournal.remove(taskJournal.windowKey(tab.windowId));
  }

  /** Sends the tab to about:blank; false when the tab is gone. */
  async function reset(tab: PooledTab): Promise<boolean> {
    try {
      await browser.tabs.update(tab.tabId, { url: 'about:blank' });
      tab.url = 'about:blank';
      return true;
    } catch {
      tab.ended = true;
      return false;
    }
  }

  /**
   * Puts a tab among the idle ones. It keeps its last page, since the next task navigates it
   * anyway: a navigation to about:blank between two tasks made Chromium swap renderer processes
   * twice per task, which nearly doubled the browser's CPU per page (measured in a crawl). A tab
   * still idle after IDLE_RESET_MS is reset, so that an idle pool does not keep pages running.
   */
  function park(tab: PooledTab): void {
    idle.push(tab);
    clearTimeout(tab.resetTimer);
    tab.resetTimer = setTimeout(() => {
      const index = idle.indexOf(tab);
      if (index < 0) return;
      // Out of the idle list while it resets, so that no task gets it half-way.
      idle.splice(index, 1);
      void reset(tab).then(async (ok) => {
        if (ok && !tab.ended && tab.generation === generation) idle.push(tab);
        else await close(tab);
      });
    }, IDLE_RESET_MS);
  }

  /** Gives the tab the address rules of `policy`, replacing rules made for another policy. */
  async function fitAddressRules(tab: PooledTab, policy: NetworkPolicy | undefined): Promise<void> {
    const policyKey = policyKeyOf(policy);
    if (tab.addressRules?.policyKey === policyKey) return;
    if (tab.addressRules !== undefined) {
      await removeTaskRules(tab.addressRules.ruleIds);
      tab.addressRules = undefined;
    }
    const ruleIds = await allocateRuleIds(addressRuleCount(policy));
    await taskJournal.record(taskJournal.windowKey(tab.windowId), { windowId: tab.windowId, ruleIds });
    await addTaskRules(buildAddressRules({ ruleIds, tabId: tab.tabId, policy }));
    tab.addressRules = { policyKey, ruleIds };
  }

  return {
    /**
     * A tab for a task: an idle one whose debugger session still holds, or a new one. Either way
     * it has the address rules of `policy`. `fresh`: always a new tab that never showed a page and
     * is closed when released, never pooled (a browser session's: an idle tab still shows its last
     * task's page, and holds whatever worlds that task's scripts were run in).
     */
    async acquire(
      policy: NetworkPolicy | undefined,
      { fresh = false }: { fresh?: boolean } = {},
    ): Promise<TaskTab> {
      let tab: PooledTab | undefined;
      while (!fresh && tab === undefined && idle.length > 0) {
        const candidate = idle.pop() as PooledTab;
        clearTimeout(candidate.resetTimer);
        // Its window was closed while it waited, or it is retired.
        if (candidate.ended || candidate.generation !== generation) await close(candidate);
        else tab = candidate;
      }
      tab ??= await open(!fresh && (await keepTabs()));
      tab.uses += 1;
      tab.inTask = true;
      try {
        await fitAddressRules(tab, policy);
      } catch (err) {
        await close(tab);
        throw err;
      }
      return tab;
    },

    /**
     * Takes a tab back from its task. `reusable`: the task changed nothing a next task would
     * notice (its own network rules are already gone). Resolves once the tab is idle or closed.
     */
    async release(handed: TaskTab, { reusable }: { reusable: boolean }): Promise<void> {
      const tab = live.get(handed.windowId);
      if (tab === undefined) return;
      tab.inTask = false;
      await detachDebugger(tab);
      const keep =
        reusable &&
        tab.pooled &&
        tab.generation === generation &&
        tab.uses < TASKS_PER_POOLED_TAB &&
        idle.length < maxIdle;
      if (keep && !tab.ended) park(tab);
      else await close(tab);
    },

    /**
     * As many idle tabs as the server may send tasks at once: more would only hold memory (each
     * is a window with its renderer). Extra idle tabs close as they come back.
     */
    setMaxIdle(count: number) {
      maxIdle = Math.max(1, count);
      for (const tab of idle.splice(maxIdle)) void close(tab);
    },
    /**
     * Closes every idle tab, and makes every tab out in a task close when it comes back: a tab
     * keeps its pages' session storage and in-memory state, which the browser's next owner must
     * not inherit (browser-state-keeper.ts).
     */
    async retire(): Promise<void> {
      generation += 1;
      await Promise.all(idle.splice(0).map((tab) => close(tab)));
    },
    /** Whether the tab is one of the pool's (idle or in a task). */
    isTaskTab: (tabId: number) => [...live.values()].some((tab) => tab.tabId === tabId),
    /** Windows and rule ids the pool holds outside tasks (reported apart from what tasks hold). */
    idleHoldings() {
      // Idle ones, and those being reset or closed between tasks.
      const held = [...live.values()].filter((tab) => !tab.inTask);
      return {
        windowIds: held.map((tab) => tab.windowId),
        ruleIds: held.flatMap((tab) => tab.addressRules?.ruleIds ?? []),
      };
    },
  };
}

export type TaskTabPool = ReturnType<typeof createTaskTabPool>;
