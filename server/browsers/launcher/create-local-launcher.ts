import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EXTENSION_ID } from '../../../shared/extension-identity';
import type { BrowserClass } from '../../../shared/protocol/messages';
import {
  hostResolverRulesLookup,
  startBrowserEgressProxy,
  type BrowserEgressProxy,
} from '../../platform/browser-egress';
import { systemLookup } from '../../platform/url-policy';
import { chromeArgs, REMOTE_DEBUGGING_PIPE_ARGS } from './chrome-args';
import { desktopChromeUserAgent, readChromeVersion, type LaunchDisplay } from './person-browser-args';
import { findXvfb, startVirtualDisplay, type VirtualDisplay } from './virtual-display';
import type { LaunchedBrowserSetup } from './launched-browser-setup';
import { forgetLaunchToken, stageLaunchedExtension } from './stage-launched-extension';
import { writeProfilePreferences } from './write-profile-preferences';

export interface LocalLauncher {
  start(): Promise<void>;
  /** Stops every browser and removes their profiles. */
  stop(): Promise<void>;
  /** Synchronous last resort for process exit: SIGKILLs whatever still runs. */
  killNow(): void;
  /** Process ids of the running browsers (for tests that kill one). */
  pids(): number[];
  /**
   * The DevTools pipes of the running browsers (with `remoteDebuggingPipe`): the browser node
   * reaches each browser's extension through them, and nothing else on the machine can.
   */
  debugPipes(): Array<{ slot: number; pid: number | undefined; input: Writable; output: Readable }>;
}

/** A browser that crashes right away is restarted with a growing delay, capped here. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A browser that ran this long is considered healthy again: its next crash restarts at once. */
const HEALTHY_RUN_MS = 60_000;
const STOP_GRACE_MS = 5_000;
/**
 * A launched browser whose process lives but which has not been connected to the hub for this
 * long is killed and launched again. The extension reconnects within about 15 s of a dropped
 * socket (its first backoff steps), and a fresh browser connects within a few seconds; one that
 * does neither will not recover by itself (a spent token, a wedged worker), and a pool left without
 * browsers fails every browser scrape while the fast path hides the outage.
 */
export const DISCONNECTED_RELAUNCH_MS = 20_000;

interface Slot {
  index: number;
  child: ChildProcess | undefined;
  profileDir: string | undefined;
  launchToken: string | undefined;
  /** The browser's copy of the extension while its launch config still holds the launch token. */
  stagedWithToken: string | undefined;
  restartDelayMs: number;
  restartTimer: NodeJS.Timeout | undefined;
  exited: Promise<void>;
  /** When the slot's browser was last seen connected (or launched). */
  lastConnectedAt: number;
}

/**
 * Launches BROWSERS Chromium processes with the built extension (headful on the launcher's own
 * virtual display when Xvfb is installed, virtual-display.ts; headless otherwise), each with a fresh
 * profile. Each is told where the hub is and given a one-time token in a file of its own copy of
 * the extension (stage-launched-extension.ts), where no page can write and no other local user can
 * read, so the extension has no server URL built in. A browser that dies, or that stays
 * disconnected from the hub, is restarted with a new profile and a new token.
 *
 * With `egress` and a policy that refuses private networks, every byte the browsers send goes
 * through one egress proxy of this launcher (start-browser-egress-proxy.ts), which connects only
 * where the policy allows; a stealth browser's upstream proxy is then reached through it. The
 * launcher starts it before the first browser and closes it after the last.
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
  egress,
  extraArgs,
  isConnected,
  disconnectedRelaunchMs = DISCONNECTED_RELAUNCH_MS,
  remoteDebuggingPipe = false,
  xvfbPath = findXvfb(),
}: LaunchedBrowserSetup & {
  count: number;
  chromePath: string;
  /** Stealth browsers are launched with `proxyServer` and say so in their start page link. */
  browserClass?: BrowserClass;
  proxyServer?: string | undefined;
  /** Launch with `--remote-debugging-pipe` (DevTools on file descriptors 3 and 4, see debugPipes). */
  remoteDebuggingPipe?: boolean;
}): LocalLauncher {
  const slots: Slot[] = [];
  let egressProxy: BrowserEgressProxy | undefined;
  let virtualDisplay: VirtualDisplay | undefined;
  let display: LaunchDisplay = { kind: 'headless' };
  let stopping = false;
  let watchdog: NodeJS.Timeout | undefined;

  const cleanup = async (slot: Slot) => {
    if (slot.launchToken !== undefined) tokens.revokeLaunchToken(slot.launchToken);
    slot.launchToken = undefined;
    if (slot.profileDir !== undefined) {
      await rm(slot.profileDir, { recursive: true, force: true, maxRetries: 3 });
      slot.profileDir = undefined;
    }
  };

  const launch = async (slot: Slot) => {
    await prepareDisplay();
    slot.profileDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-chrome-'));
    await writeProfilePreferences(slot.profileDir);
    slot.launchToken = tokens.issueLaunchToken();
    const stagedExtensionDir = await stageLaunchedExtension({
      extensionDir,
      profileDir: slot.profileDir,
      launch: {
        serverUrl: hubUrl,
        token: slot.launchToken,
        browserClass,
        ...(egressProxy === undefined ? {} : { egressProxy: true }),
      },
    });
    slot.stagedWithToken = stagedExtensionDir;
    // The start page only says what the browser is for; it carries nothing a page could forge.
    const startUrl = `chrome-extension://${EXTENSION_ID}/launch.html`;
    const proxyUrl = egressProxy?.url ?? proxyServer;
    const args = chromeArgs({
      profileDir: slot.profileDir,
      extensionDir: stagedExtensionDir,
      startUrl,
      runningAsRoot: process.getuid?.() === 0,
      display,
      proxy: proxyUrl === undefined ? undefined : { server: proxyUrl, hubHost: new URL(hubUrl).host },
      extraArgs: remoteDebuggingPipe ? [...(extraArgs ?? []), ...REMOTE_DEBUGGING_PIPE_ARGS] : extraArgs,
    });
    const startedAt = Date.now();
    slot.lastConnectedAt = startedAt;
    // Its own process group, so that stopping it also stops its renderers and helpers.
    const child = spawn(chromePath, args, {
      detached: true,
      ...(virtualDisplay === undefined ? {} : { env: { ...process.env, ...virtualDisplay.env } }),
      stdio: remoteDebuggingPipe
        ? ['ignore', 'ignore', 'pipe', 'pipe', 'pipe']
        : ['ignore', 'ignore', 'pipe'],
    });
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

  /** Kills a launched browser that has stayed away from the hub; its exit handler relaunches it. */
  /** A launch token its browser's hello spent leaves the profile (stage-launched-extension.ts). */
  const forgetSpentLaunchToken = (slot: Slot, launchToken: string) => {
    const staged = slot.stagedWithToken;
    if (staged === undefined || tokens.browserIdOf?.(launchToken) === undefined) return;
    slot.stagedWithToken = undefined;
    void forgetLaunchToken(staged).catch((err: unknown) =>
      log.warn('could not remove a spent launch token from its profile', {
        slot: slot.index,
        error: String(err),
      }),
    );
  };

  const checkConnections = () => {
    if (isConnected === undefined || stopping) return;
    const now = Date.now();
    for (const slot of slots) {
      if (slot.child === undefined || slot.launchToken === undefined) continue;
      forgetSpentLaunchToken(slot, slot.launchToken);
      if (isConnected(slot.launchToken)) {
        slot.lastConnectedAt = now;
      } else if (now - slot.lastConnectedAt > disconnectedRelaunchMs) {
        log.warn('browser not connected to the hub; relaunching it', {
          slot: slot.index,
          pid: slot.child.pid,
          disconnectedForMs: now - slot.lastConnectedAt,
        });
        slot.lastConnectedAt = now;
        signalGroup(slot.child, 'SIGKILL');
      }
    }
  };

  const startEgressProxy = async () => {
    if (egress === undefined || egressProxy !== undefined) return;
    // A stealth browser's STEALTH_PROXY_URL is its proxy; the pool's are everyone else's.
    const proxyPool = proxyServer === undefined ? egress.proxyPool : undefined;
    if (egress.policy.allowPrivateNetworks && proxyPool === undefined) return;
    const lookup = egress.lookup ?? systemLookup;
    egressProxy = await startBrowserEgressProxy({
      policy: egress.policy,
      lookup: hostResolverRulesLookup(extraArgs ?? [], lookup) ?? lookup,
      upstreamProxyUrl: proxyServer,
      proxyPool,
      log,
    });
  };

  /**
   * The virtual display when Xvfb is installed (started again when it ended with its last
   * browser); otherwise headless with a person's user agent for this Chromium's version (read
   * from the binary, so it never falls behind the browser). Browsers launched together wait for
   * the same display.
   */
  let headlessChosen = false;
  let preparing: Promise<void> | undefined;
  const startDisplay = async () => {
    await virtualDisplay?.close();
    virtualDisplay = undefined;
    if (xvfbPath !== null && xvfbPath !== undefined) {
      try {
        virtualDisplay = await startVirtualDisplay(xvfbPath);
        display = { kind: 'virtual' };
        log.info('launched browsers draw on a virtual display', { display: virtualDisplay.env.DISPLAY });
        return;
      } catch (err) {
        log.warn('could not start Xvfb; launched browsers run headless', { error: String(err) });
      }
    }
    headlessChosen = true;
    const version = await readChromeVersion(chromePath).catch(() => undefined);
    display = {
      kind: 'headless',
      userAgent: version === undefined ? undefined : desktopChromeUserAgent(version),
    };
  };
  const prepareDisplay = async () => {
    if (headlessChosen || virtualDisplay?.alive() === true) return;
    preparing ??= startDisplay().finally(() => {
      preparing = undefined;
    });
    await preparing;
  };

  return {
    async start() {
      await startEgressProxy();
      if (isConnected !== undefined && watchdog === undefined) {
        watchdog = setInterval(checkConnections, Math.min(1_000, disconnectedRelaunchMs / 4));
        watchdog.unref();
      }
      for (let index = 0; index < count; index += 1) {
        const slot: Slot = {
          index,
          child: undefined,
          profileDir: undefined,
          launchToken: undefined,
          stagedWithToken: undefined,
          restartDelayMs: 0,
          restartTimer: undefined,
          exited: Promise.resolve(),
          lastConnectedAt: Date.now(),
        };
        slots.push(slot);
        await launch(slot);
      }
    },

    async stop() {
      stopping = true;
      clearInterval(watchdog);
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
      await egressProxy?.close();
      egressProxy = undefined;
      await virtualDisplay?.close();
      virtualDisplay = undefined;
    },

    killNow() {
      stopping = true;
      clearInterval(watchdog);
      for (const slot of slots) if (slot.child !== undefined) signalGroup(slot.child, 'SIGKILL');
      virtualDisplay?.killNow();
    },

    pids: () => slots.flatMap((slot) => (slot.child?.pid === undefined ? [] : [slot.child.pid])),

    debugPipes: () =>
      slots.flatMap((slot) => {
        const input = slot.child?.stdio[3];
        const output = slot.child?.stdio[4];
        if (!remoteDebuggingPipe || input == null || output == null) return [];
        return [
          { slot: slot.index, pid: slot.child?.pid, input: input as Writable, output: output as Readable },
        ];
      }),
  };
}
