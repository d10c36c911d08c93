import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Where Xvfb is installed (Debian/Ubuntu: apt-get install xvfb). */
export const XVFB_CANDIDATES = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'] as const;

/**
 * The screen of the virtual display: a common desktop monitor (QHD) at 24-bit colour, larger than
 * the 1920×1080 task windows (extension/tabs/task-window.ts). On a screen of the window's own size
 * Chromium's X11 windows come out a pixel short each way (a 1919-pixel viewport), which a
 * maximised window on a person's desktop never shows.
 */
export const VIRTUAL_SCREEN = { width: 2560, height: 1440, depth: 24 } as const;

/** The size of a launched browser's windows, its first one included: a 1080p desktop window. */
export const BROWSER_WINDOW = { width: 1920, height: 1080 } as const;

const START_TIMEOUT_MS = 10_000;

/** An X display of our own that launched browsers draw their windows on. */
export interface VirtualDisplay {
  /** The environment a browser needs to reach it: DISPLAY and XAUTHORITY. */
  env: { DISPLAY: string; XAUTHORITY: string };
  /** False once Xvfb has ended (after its last browser disconnected, or killed). */
  alive(): boolean;
  close(): Promise<void>;
  killNow(): void;
}

/** The installed Xvfb, or undefined when there is none (launched browsers then run headless). */
export function findXvfb(candidates: readonly string[] = XVFB_CANDIDATES): string | undefined {
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** One 16-bit big-endian length followed by the bytes: the field format of an Xauthority file. */
const field = (bytes: Buffer) => {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/**
 * An Xauthority file with one MIT-MAGIC-COOKIE-1 entry for any address and any display
 * (FamilyWild, empty display number), so it can be written before Xvfb has picked its display.
 */
export function xauthorityEntry(cookie: Buffer): Buffer {
  const familyWild = Buffer.from([0xff, 0xff]);
  return Buffer.concat([
    familyWild,
    field(Buffer.alloc(0)),
    field(Buffer.alloc(0)),
    field(Buffer.from('MIT-MAGIC-COOKIE-1')),
    field(cookie),
  ]);
}

/**
 * Starts Xvfb on a display number it picks itself (-displayfd), reachable only through a local
 * socket and only with a random cookie (-auth): no other local user can look at or type into the
 * browsers' windows. It ends by itself when its last browser disconnects (-terminate), so a
 * server that dies without stopping its launcher leaves no display behind its browsers; the
 * launcher starts a new one for the next browser it launches. Headful Chromium on it looks like a person's desktop Chrome without any
 * switch or script that pretends (docs/browser-control.md#bot-detection).
 */
export async function startVirtualDisplay(xvfbPath: string): Promise<VirtualDisplay> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-display-'));
  const authFile = path.join(dir, 'Xauthority');
  await writeFile(authFile, xauthorityEntry(randomBytes(16)), { mode: 0o600 });
  const { width, height, depth } = VIRTUAL_SCREEN;
  const child: ChildProcess = spawn(
    xvfbPath,
    [
      '-displayfd',
      '3',
      '-screen',
      '0',
      `${width}x${height}x${depth}`,
      '-nolisten',
      'tcp',
      '-auth',
      authFile,
      '-terminate',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: true },
  );
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-1_000);
  });
  let running = true;
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      running = false;
      resolve();
    }),
  );
  const removeDir = () => rm(dir, { recursive: true, force: true });

  const display = await new Promise<string>((resolve, reject) => {
    let written = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not report its display')), START_TIMEOUT_MS);
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      written += chunk.toString();
      const number = /^(\d+)\n/.exec(written)?.[1];
      if (number !== undefined) {
        clearTimeout(timer);
        resolve(`:${number}`);
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${stderrTail.trim()}`));
    });
  }).catch(async (err: unknown) => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    await removeDir();
    throw err;
  });

  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  return {
    env: { DISPLAY: display, XAUTHORITY: authFile },
    alive: () => running,
    async close() {
      signal('SIGTERM');
      await exited;
      await removeDir();
    },
    killNow: () => signal('SIGKILL'),
  };
}
