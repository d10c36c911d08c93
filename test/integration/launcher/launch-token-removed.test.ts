import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserTokens } from '../../../server/hub/browser-tokens';
import { createLocalLauncher, type LocalLauncher } from '../../../server/launcher/create-local-launcher';
import { silentLog } from '../../../server/log';
import { LAUNCH_CONFIG_FILE, LaunchConfig } from '../../../shared/protocol/launch-config';
import { waitUntil } from '../../helpers/start-test-tabhive';

/**
 * N1 read a launched browser's profile, launch.json included. The launch token is one-time, and
 * once the browser's hello has spent it, the launcher rewrites the file without it: what a file
 * read finds there later is the hub's address only.
 */
describe('a launched browser’s launch config', () => {
  let dir: string;
  let launcher: LocalLauncher | undefined;
  afterEach(async () => {
    await launcher?.stop();
    launcher = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('loses its launch token once the token is spent', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-launch-token-'));
    const extensionDir = path.join(dir, 'extension');
    await mkdir(extensionDir, { recursive: true });
    await writeFile(path.join(extensionDir, 'manifest.json'), '{}');
    // A stand-in for Chromium that says where its extension copy is, then lives on.
    const chrome = path.join(dir, 'fake-chrome.sh');
    await writeFile(
      chrome,
      [
        '#!/bin/sh',
        'for arg in "$@"; do case "$arg" in --load-extension=*) ext="${arg#--load-extension=}";; esac; done',
        `echo "$ext" > "${path.join(dir, 'staged.txt')}"`,
        'exec sleep 600',
      ].join('\n'),
    );
    await chmod(chrome, 0o755);
    const tokens = createBrowserTokens();
    launcher = createLocalLauncher({
      count: 1,
      chromePath: chrome,
      extensionDir,
      hubUrl: 'ws://127.0.0.1:9/browser-hub',
      tokens,
      log: silentLog,
      isConnected: () => true,
      disconnectedRelaunchMs: 400,
    });
    await launcher.start();
    const stagedFile = async () => {
      const staged = (await readFile(path.join(dir, 'staged.txt'), 'utf8').catch(() => '')).trim();
      return staged === '' ? undefined : path.join(staged, LAUNCH_CONFIG_FILE);
    };
    await waitUntil(async () => (await stagedFile()) !== undefined, 5_000, 'the fake browser to start');
    const file = (await stagedFile()) as string;
    const before = LaunchConfig.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(before.token).toBeDefined();

    // Not spent yet: it stays, or the browser could never say its first hello.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(LaunchConfig.parse(JSON.parse(await readFile(file, 'utf8'))).token).toBe(before.token);

    // The hub spends it (the browser's first hello).
    expect(tokens.spend(before.token ?? '')).toBeDefined();
    await waitUntil(
      async () => LaunchConfig.parse(JSON.parse(await readFile(file, 'utf8'))).token === undefined,
      5_000,
      'the spent token to leave the profile',
    );
    const after = await readFile(file, 'utf8');
    expect(after).not.toContain(before.token);
    expect(JSON.parse(after)).toEqual({ serverUrl: before.serverUrl, browserClass: 'basic' });
  });
});
