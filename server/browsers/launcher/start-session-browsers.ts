import type { Config } from '../../platform/config';
import { createSessionBrowsers, type SessionBrowsers } from './create-session-browsers';
import type { LaunchedBrowserSetup } from './launched-browser-setup';

/**
 * The session browsers of a server that launches its own (BROWSERS > 0, so a Chromium is at
 * hand): SESSION_BROWSERS at most, none launched until a session opens. Undefined otherwise, and
 * sessions then run on the pool's browsers (create-session-leases.ts).
 */
export function startSessionBrowsers({
  config,
  chromePath,
  ...setup
}: LaunchedBrowserSetup & {
  config: Config;
  /** The pool's Chromium; undefined when the server launches no browsers. */
  chromePath: string | undefined;
  /** The hub's tokens: a session's browser is known to the hub by the ones it spends. */
  tokens: { browserIdOf(launchToken: string): string | undefined };
}): SessionBrowsers | undefined {
  if (chromePath === undefined || config.SESSION_BROWSERS === 0) return undefined;
  return createSessionBrowsers({ ...setup, max: config.SESSION_BROWSERS, chromePath });
}
