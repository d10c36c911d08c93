import type { Config } from '../config';
import type { Log } from '../log';
import { createSessionBrowsers, type SessionBrowsers } from './create-session-browsers';

/**
 * The session browsers of a server that launches its own (BROWSERS > 0, so a Chromium is at
 * hand): SESSION_BROWSERS at most, none launched until a session opens. Undefined otherwise, and
 * sessions then run on the pool's browsers (create-session-leases.ts).
 */
export function startSessionBrowsers({
  config,
  chromePath,
  ...deps
}: {
  config: Config;
  /** The pool's Chromium; undefined when the server launches no browsers. */
  chromePath: string | undefined;
  extensionDir: string;
  hubUrl: string;
  tokens: {
    issueLaunchToken(): string;
    revokeLaunchToken(token: string): void;
    browserIdOf(launchToken: string): string | undefined;
  };
  log: Log;
  /** The egress proxy's policy (create-local-launcher.ts): a session's browser gets one too. */
  egress?: Parameters<typeof createSessionBrowsers>[0]['egress'];
  extraArgs?: readonly string[] | undefined;
  isConnected?: (launchToken: string) => boolean;
  disconnectedRelaunchMs?: number;
}): SessionBrowsers | undefined {
  if (chromePath === undefined || config.SESSION_BROWSERS === 0) return undefined;
  return createSessionBrowsers({ ...deps, max: config.SESSION_BROWSERS, chromePath });
}
