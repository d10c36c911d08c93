import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EXTENSION_ID } from '../../shared/extension-identity';
import type { BrowserClass } from '../../shared/protocol/messages';
import type { Log } from '../log';
import { chromeArgs } from './chrome-args';
import { writeProfilePreferences } from './write-profile-preferences';

export interface LocalLauncher {
  start(): Promise<void>;
  /** Stops every browser and removes their profiles. */
  stop(): Promise<void>;
  /** Synchronous last resort for process exit: SIGKILLs whatever still runs. */
  killNow(): void;
  /** Process ids of the running browsers (for tests that kill one). */
  pids(): number[];
}

/** A browser that crashes right away is restarted with a growing delay, capped here. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A browser that ran this long is considered healthy again: its next crash restarts at once. */
const HEALTHY_RUN_MS = 60_000;
const STOP_GRACE_MS = 5_000;

interface Slot {
  index: number;
  child: ChildProcess | undefined;
  profileDir: string | undefined;
  launchToken: string | undefined;
  restartDelayMs: number;
  restartTimer: NodeJS.Timeout | undefined;
  exited: Promise<void>;
}

/**
 * Launches BROWSERS headless Chromium processes with the built extension, each with a fresh
 * profile. Each is told where the hub is and given a one-time token through its start page
 * (chrome-extension://<id>/launch.html#server=…&token=…), so the extension has no server URL
 * built in. A browser that dies is restarted with a new profile and a new token.
 */
export function createLocalLauncher({
  count,
  chromePath,
  extensionDir,
  hubUrl,
  tokens,
  log,
  browserClass = 'basic',
  proxyServer,
  extraArgs,
}: {
  count: number;
  chromePath: string;
  extensionDir: string;
  hubUrl: string;
  tokens: { issueLaunchToken(): string; revokeLaunchToken(token: string): void };
  log: Log;
  /** Stealth browsers are launched with `proxyServer` and say so in their start page link. */
  browserClass?: BrowserClass;
  proxyServer?: string | undefined;
  extraArgs?: readonly string[];
}): LocalLauncher {
  const slots: Slot[] = [];
  let stopping = false;

  const cleanup = async (slot: Slot) => {
    if (slot.launchToken !== undefined) tokens.revokeLaunchToken(slot.launchToken);
    slot.launchToken = undefined;
    if (slot.profileDir !== undefined) {
      await rm(slot.profileDir, { recursive: true, force: true, maxRetries: 3 });
      slot.profileDir = undefined;
    }
  };

  const launch = async (slot: Slot) => {
    slot.profileDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-chrome-'));
    await writeProfilePreferences(slot.profileDir);
    slot.launchToken = tokens.issueLaunchToken();
    const startUrl =
      `chrome-extension://${EXTENSION_ID}/launch.html#` +
      new URLSearchParams({ server: hubUrl, token: slot.launchToken, class: browserClass }).toString();
    const args = chromeArgs({
      profileDir: slot.profileDir,
      extensionDir,
      startUrl,
      runningAsRoot: process.getuid?.() === 0,
      proxy: proxyServer === undefined ? undefined : { server: proxyServer, hubHost: new URL(hubUrl).host },
      extraArgs,
    });
    const startedAt = Date.now();
    // Its own process group, so that stopping it also stops its renderers and helpers.
    const child = spawn(chromePath, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    slot.child = child;
    let stderrTail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-2_000);
    });
    log.info('browser launched', { slot: slot.index, pid: child.pid });

    slot.exited = new Promise<void>((resolve) => {
      child.once('error', (err) =>
        log.error('browser failed to start', { slot: slot.index, error: err.message }),
      );
      child.once('close', (code, signal) => {
        slot.child = undefined;
        void cleanup(slot).finally(resolve);
        if (stopping) return;
        const ranMs = Date.now() - startedAt;
        slot.restartDelayMs =
          ranMs > HEALTHY_RUN_MS ? 0 : Math.min(MAX_RESTART_DELAY_MS, slot.restartDelayMs * 2 || 1_000);
        log.warn('browser exited; restarting', {
          slot: slot.index,
          code,
          signal,
          restartInMs: slot.restartDelayMs,
          stderr: stderrTail.trim().split('\n').slice(-5).join('\n'),
        });
        slot.restartTimer = setTimeout(() => {
          slot.restartTimer = undefined;
          if (!stopping) void launch(slot);
        }, slot.restartDelayMs);
      });
    });
  };

  const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };

  return {
    async start() {
      for (let index = 0; index < count; index += 1) {
        const slot: Slot = {
          index,
          child: undefined,
          profileDir: undefined,
          launchToken: undefined,
          restartDelayMs: 0,
          restartTimer: undefined,
          exited: Promise.resolve(),
        };
        slots.push(slot);
        await launch(slot);
      }
    },

    async stop() {
      stopping = true;
      await Promise.all(
        slots.map(async (slot) => {
          clearTimeout(slot.restartTimer);
          const child = slot.child;
          if (child !== undefined) {
            signalGroup(child, 'SIGTERM');
            const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
            await slot.exited;
            clearTimeout(killer);
          }
          await cleanup(slot);
        }),
      );
    },

    killNow() {
      stopping = true;
      for (const slot of slots) if (slot.child !== undefined) signalGroup(slot.child, 'SIGKILL');
    },

    pids: () => slots.flatMap((slot) => (slot.child?.pid === undefined ? [] : [slot.child.pid])),
  };
}
