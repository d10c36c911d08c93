import type { Page, chromium } from 'playwright-core';
import type { LiveSession } from '../live-session';
import { createHostBridge } from './host-bridge';
import { PLAYWRIGHT_SURFACE } from './playwright-surface';
import { runInSandbox, type SandboxOutcome } from './run-in-sandbox';
import type { SandboxLimits } from './sandbox-limits';

/** A session's CDP relay for the server's own client: where to connect, and how to hang up. */
export interface PrivateRelayEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Opens a relay endpoint for one session (the CDP relay's `openPrivateEndpoint`, plugged in by the
 * composition root: the relay lives in products/live-view, which builds on this folder).
 */
export type OpenRelayEndpoint = (session: LiveSession) => Promise<PrivateRelayEndpoint>;

/** The session's page could not be reached through its relay (the session ended, the tab is gone). */
export class RelayUnreachable extends Error {}

/**
 * Runs a caller's Playwright code (`language: "node"`) against one session: connects Playwright
 * (playwright-core's connectOverCDP) to a private endpoint of the session's own CDP relay, gives
 * the code that connection's `browser`, `context` and `page` through the sandbox's bridge, and
 * hangs up when the code is done or stopped, so no call of the code outlives its run. The relay is
 * the only thing this connection reaches: one tab, its allowlist, the URL policy on navigations.
 * It is the one connection this folder opens outside platform/egress, and it goes to this
 * process's own loopback endpoint, never to an address a caller chose (docs/browser-sessions.md#execute).
 */
/** How long a fresh connection may take to see the page's main world before it is made again. */
const MAIN_WORLD_PROBE_MS = 1_000;

type Connected = Awaited<ReturnType<typeof chromium.connectOverCDP>>;

/** Whether the connection can evaluate in the page's main world within `ms`. */
async function seesMainWorld(page: Page, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([page.evaluate('1').then(() => true as const), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function runPlaywrightCode({
  session,
  code,
  timeoutMs,
  limits,
  openEndpoint,
}: {
  session: LiveSession;
  code: string;
  timeoutMs: number;
  limits: SandboxLimits;
  openEndpoint: OpenRelayEndpoint;
}): Promise<SandboxOutcome> {
  const started = Date.now();
  const left = () => Math.max(1, timeoutMs - (Date.now() - started));
  const openConnection = async () => {
    const endpoint = await openEndpoint(session);
    try {
      // Loaded on the first execute: Playwright's client is large, and a start never needs it.
      const { chromium: client } = await import('playwright-core');
      const browser: Connected = await client.connectOverCDP(endpoint.url, { timeout: left() });
      const context = browser.contexts()[0];
      const page = context?.pages()[0];
      if (context === undefined || page === undefined) {
        throw new RelayUnreachable("the session's page is not there");
      }
      return { endpoint, browser, context, page };
    } catch (err) {
      await endpoint.close();
      if (err instanceof RelayUnreachable) throw err;
      throw new RelayUnreachable(err instanceof Error ? err.message : String(err));
    }
  };
  let connection: Awaited<ReturnType<typeof openConnection>>;
  try {
    connection = await openConnection();
    // The first relay client of a fresh tab is told of no main world (seen on new sessions and
    // interactions alike) and would wait forever in evaluate: such a connection is made again,
    // for at most half the run's time; the code runs either way.
    const lookUntil = started + timeoutMs / 2;
    while (
      Date.now() < lookUntil &&
      !(await seesMainWorld(connection.page, Math.min(MAIN_WORLD_PROBE_MS, lookUntil - Date.now())))
    ) {
      await connection.endpoint.close();
      connection = await openConnection();
    }
  } catch (err) {
    if (Date.now() - started >= timeoutMs) return { kind: 'killed', reason: 'timeout', logs: [] };
    throw err;
  }
  try {
    const host = createHostBridge({
      roots: { browser: connection.browser, context: connection.context, page: connection.page },
      surface: PLAYWRIGHT_SURFACE,
      limits,
    });
    return await runInSandbox({ code, timeoutMs: left(), limits, host });
  } finally {
    await connection.endpoint.close();
  }
}
