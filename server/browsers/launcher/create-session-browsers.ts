import { createLocalLauncher } from './create-local-launcher';
import type { LaunchedBrowserSetup } from './launched-browser-setup';

/** A browser launched for one session; closing it ends its process and removes its profile. */
export interface SessionBrowser {
  close(): Promise<void>;
  pid(): number | undefined;
}

export type SessionBrowserLaunch =
  | { ok: true; browser: SessionBrowser }
  /** `full`: every session browser is in use; `team`: the team holds its share of them. */
  | { ok: false; reason: 'full' | 'team'; limit: number };

export interface SessionBrowsers {
  /**
   * Launches a browser for the session task `taskId` of `teamId`, or says why not. The slot is
   * taken at once, so that two sessions opened together cannot both take the last one.
   */
  launch(request: { taskId: string; teamId: string }): SessionBrowserLaunch;
  /** The session task a connected launched browser is reserved for (the hub's `reservations`). */
  reservedFor(browserId: string): string | undefined;
  /** Session browsers running or starting now. */
  count(): number;
  stop(): Promise<void>;
  killNow(): void;
}

/**
 * The most session browsers one team may hold: all but one when there are two or more, so that
 * another team can always open a session while one team holds the rest.
 */
export const teamShareOf = (max: number) => Math.max(1, max - 1);

interface Entry {
  taskId: string;
  teamId: string;
  launchTokens: Set<string>;
  stop(): Promise<void>;
  killNow(): void;
  pids(): number[];
}

/**
 * Browsers of their own for browser sessions (docs/browser-sessions.md): one headless Chromium
 * per session, with a fresh throwaway profile, launched when the session opens and closed when it
 * ends, at most `max` at once. A session so never shares cookies, storage, tabs or an extension
 * with another session or another team, and never holds a pool browser other teams' scrapes
 * wait for. Each is the pool's launcher with one browser (create-local-launcher.ts); its launch
 * tokens are recorded here, so the hub knows the browser by its token as this session's only.
 */
export function createSessionBrowsers({
  max,
  chromePath,
  tokens,
  log,
  ...setup
}: LaunchedBrowserSetup & {
  max: number;
  chromePath: string;
  /** The hub's tokens: the session's browser is known to the hub by the ones it spends. */
  tokens: { browserIdOf(launchToken: string): string | undefined };
}): SessionBrowsers {
  const entries = new Map<string, Entry>();
  const teamShare = teamShareOf(max);

  const start = (taskId: string, teamId: string): Entry => {
    const launchTokens = new Set<string>();
    const launcher = createLocalLauncher({
      // Each session browser has its own egress proxy and the launchers' watchdog, which also
      // takes a spent launch token out of the browser's profile.
      ...setup,
      count: 1,
      chromePath,
      // Every token this browser is ever given (a relaunch after a crash too) names it as the
      // session's: it can never join the pool, whatever its hello says.
      tokens: {
        issueLaunchToken() {
          const token = tokens.issueLaunchToken();
          launchTokens.add(token);
          return token;
        },
        revokeLaunchToken(token) {
          tokens.revokeLaunchToken(token);
        },
        browserIdOf: (token) => tokens.browserIdOf(token),
      },
      log,
    });
    const started = launcher.start().catch((err: unknown) => {
      log.error('session browser failed to start', { taskId, error: String(err) });
    });
    let stopping: Promise<void> | undefined;
    return {
      taskId,
      teamId,
      launchTokens,
      stop: () =>
        (stopping ??= started.then(async () => {
          await launcher.stop();
          for (const token of launchTokens) tokens.revokeLaunchToken(token);
        })),
      killNow: () => launcher.killNow(),
      pids: () => launcher.pids(),
    };
  };

  return {
    launch({ taskId, teamId }) {
      const mine = [...entries.values()].filter((entry) => entry.teamId === teamId).length;
      if (mine >= teamShare) return { ok: false, reason: 'team', limit: teamShare };
      if (entries.size >= max) return { ok: false, reason: 'full', limit: max };
      const entry = start(taskId, teamId);
      entries.set(taskId, entry);
      log.info('session browser launched', { taskId, teamId, sessionBrowsers: entries.size });
      return {
        ok: true,
        browser: {
          async close() {
            await entry.stop();
            if (entries.get(taskId) === entry) entries.delete(taskId);
          },
          pid: () => entry.pids()[0],
        },
      };
    },

    reservedFor(browserId) {
      for (const entry of entries.values()) {
        for (const token of entry.launchTokens) {
          if (tokens.browserIdOf(token) === browserId) return entry.taskId;
        }
      }
      return undefined;
    },

    count: () => entries.size,

    async stop() {
      await Promise.all([...entries.values()].map((entry) => entry.stop()));
      entries.clear();
    },

    killNow() {
      for (const entry of entries.values()) entry.killNow();
    },
  };
}
