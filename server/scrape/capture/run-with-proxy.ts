import type { BrowserClass, PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { TaskError, type RunOptions, type TaskPriority } from '../../browsers/hub';
import { worthAnotherBrowser } from './block-pages/capture-block';

export type ProxyMode = 'basic' | 'stealth' | 'enhanced' | 'auto';

/**
 * The class `enhanced` runs on: the strongest one connected. Stealth browsers (their own network
 * through STEALTH_PROXY_URL, docs/wire-contract.md §9's stealth surcharge) are the strongest class Tabhive has;
 * without one, a basic browser. Unlike `stealth`, `enhanced` never fails for want of one.
 */
export function enhancedClass(connectedBrowsers: (browserClass: BrowserClass) => number): BrowserClass {
  return connectedBrowsers('stealth') > 0 ? 'stealth' : 'basic';
}

export interface ProxyRoutingDeps {
  runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  /** Connected browsers of a class; without it, no stealth browser is assumed. */
  connectedBrowsers?: ((browserClass: BrowserClass) => number) | undefined;
}

/** A capture and the class of browser that made it (`metadata.proxyUsed`). */
export type RoutedCapture = PageCapture & { browserClass: BrowserClass };

/**
 * Runs a page task on the class of browser the caller's `proxy` asks for. `basic` and `stealth`
 * run on that class only (stealth fails at once when none is connected); `enhanced` on the
 * strongest class connected (enhancedClass), and a team's donated browser that covers the URL
 * still takes the task, as for every mode (task-scheduler.ts). `auto` runs on a basic
 * browser and, when the page looks blocked (block-pages/capture-block.ts) and a stealth browser is
 * connected, once more on that, within the same deadline; otherwise the plain result stands
 * (docs/wire-contract.md §3.1, `proxy`). The last step of `auto` is the team's donated browser: a
 * URL one of them allows goes to it from the start (admit/donated-route.ts), where its person can
 * pass a challenge (docs/donated-browsers.md). A block page that stands is the caller's to refuse
 * (fresh-capture.ts).
 */
export async function runWithProxy(
  { runTask, connectedBrowsers = () => 0 }: ProxyRoutingDeps,
  spec: PageTaskSpec,
  {
    timeoutMs,
    proxy,
    teamId,
    priority,
  }: {
    timeoutMs: number;
    proxy: ProxyMode;
    /** Lets the team's donated browsers take the task (whatever the class). */
    teamId?: string | undefined;
    priority?: TaskPriority | undefined;
  },
): Promise<RoutedCapture> {
  const forTeam = {
    ...(teamId === undefined ? {} : { teamId }),
    ...(priority === undefined ? {} : { priority }),
  };
  if (proxy === 'enhanced') {
    const browserClass = enhancedClass(connectedBrowsers);
    return { ...(await runTask(spec, { timeoutMs, browserClass, ...forTeam })), browserClass };
  }
  if (proxy === 'stealth') {
    if (connectedBrowsers('stealth') === 0) {
      throw new TaskError('NO_STEALTH_BROWSER', 'No stealth browser is connected');
    }
    return {
      ...(await runTask(spec, { timeoutMs, browserClass: 'stealth', ...forTeam })),
      browserClass: 'stealth',
    };
  }
  const startedAt = Date.now();
  const plain: RoutedCapture = {
    ...(await runTask(spec, { timeoutMs, browserClass: 'basic', ...forTeam })),
    browserClass: 'basic',
  };
  if (proxy === 'basic' || !worthAnotherBrowser(plain) || connectedBrowsers('stealth') === 0) return plain;
  const remainingMs = timeoutMs - (Date.now() - startedAt);
  if (remainingMs <= 0) return plain;
  try {
    return {
      ...(await runTask(spec, { timeoutMs: remainingMs, browserClass: 'stealth', ...forTeam })),
      browserClass: 'stealth',
    };
  } catch {
    // The escalation is a second chance, not a new way to fail: the caller still gets the page.
    return plain;
  }
}
