import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserTokens } from '../../../server/browsers/launch-tokens/browser-tokens';
import {
  createLocalLauncher,
  type LocalLauncher,
} from '../../../server/browsers/launcher/create-local-launcher';
import type { Log } from '../../../server/platform/log/log';
import { LAUNCH_CONFIG_FILE, LaunchConfig } from '../../../shared/protocol/launch-config';
import { waitUntil } from '../../helpers/start-test-tabhive';

/**
 * The launcher with a stand-in for Chromium: a shell script that records its command line and
 * the extension folder it was given, then lives on without ever connecting to a hub, as a browser
 * whose worker has stopped reconnecting does (the "silent dead pool").
 */
async function fakeChrome(dir: string): Promise<string> {
  const script = path.join(dir, 'fake-chrome.sh');
  await writeFile(
    script,
    [
      '#!/bin/sh',
      `echo "$@" >> "${path.join(dir, 'args.log')}"`,
      'for arg in "$@"; do case "$arg" in --load-extension=*) ext="${arg#--load-extension=}";; esac; done',
      `cat "$ext/${LAUNCH_CONFIG_FILE}" >> "${path.join(dir, 'configs.log')}"; echo >> "${path.join(dir, 'configs.log')}"`,
      'exec sleep 600',
    ].join('\n'),
  );
  await chmod(script, 0o755);
  return script;
}

function capturingLog() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const log: Log = {
    info: (message, fields) => lines.push({ level: 'info', message, ...(fields ? { fields } : {}) }),
    warn: (message, fields) => lines.push({ level: 'warn', message, ...(fields ? { fields } : {}) }),
    error: (message, fields) => lines.push({ level: 'error', message, ...(fields ? { fields } : {}) }),
  };
  return { log, lines };
}

describe('launched browsers', () => {
  let dir: string;
  let launcher: LocalLauncher | undefined;
  afterEach(async () => {
    await launcher?.stop();
    launcher = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('relaunches a browser that is alive but stays disconnected from the hub', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-watchdog-'));
    const extensionDir = path.join(dir, 'extension');
    await mkdirWithManifest(extensionDir);
    const { log, lines } = capturingLog();
    launcher = createLocalLauncher({
      count: 1,
      chromePath: await fakeChrome(dir),
      extensionDir,
      hubUrl: 'ws://127.0.0.1:9/browser-hub',
      tokens: createBrowserTokens(),
      log,
      isConnected: () => false,
      disconnectedRelaunchMs: 400,
    });
    await launcher.start();
    const [firstPid] = launcher.pids();
    expect(firstPid).toBeDefined();
    await waitUntil(
      () => launcher!.pids().length === 1 && launcher!.pids()[0] !== firstPid,
      10_000,
      'the disconnected browser to be relaunched',
    );
    expect(lines.some((line) => line.level === 'warn' && /not connected to the hub/.test(line.message))).toBe(
      true,
    );
  });

  it('keeps a browser that is connected, and hands its token in the extension, not on the command line', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-watchdog-'));
    const extensionDir = path.join(dir, 'extension');
    await mkdirWithManifest(extensionDir);
    const tokens = createBrowserTokens();
    launcher = createLocalLauncher({
      count: 1,
      chromePath: await fakeChrome(dir),
      extensionDir,
      hubUrl: 'ws://127.0.0.1:9/browser-hub',
      tokens,
      log: capturingLog().log,
      isConnected: () => true,
      disconnectedRelaunchMs: 400,
    });
    await launcher.start();
    const [pid] = launcher.pids();
    await waitUntil(
      async () => (await readFile(path.join(dir, 'configs.log'), 'utf8').catch(() => '')).length > 2,
      5_000,
      'the fake browser to start',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(launcher.pids()).toEqual([pid]);

    const config = LaunchConfig.parse(
      JSON.parse((await readFile(path.join(dir, 'configs.log'), 'utf8')).trim()),
    );
    expect(config).toMatchObject({ serverUrl: 'ws://127.0.0.1:9/browser-hub', browserClass: 'basic' });
    // The token works once at the hub, and is nowhere on the command line (L9: /proc/<pid>/cmdline).
    expect(tokens.spend(config.token ?? '')).toBeDefined();
    const args = await readFile(path.join(dir, 'args.log'), 'utf8');
    expect(args).not.toContain(config.token);
    expect(args).not.toContain('token=');
    expect(args).toMatch(/--load-extension=\S+tabhive-extension/);
  });
});

async function mkdirWithManifest(extensionDir: string) {
  await mkdir(extensionDir, { recursive: true });
  await writeFile(path.join(extensionDir, 'manifest.json'), '{}');
}
