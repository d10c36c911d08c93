import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLocalLauncher,
  type LocalLauncher,
} from '../../../server/browsers/launcher/create-local-launcher';
import { LAUNCH_CONFIG_FILE, LaunchConfig } from '../../../shared/protocol/launch-config';
import { commandLineFlag, fakeChromeCommandLine, fakeChromeSetUp } from '../../helpers/fake-chrome';
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
    const setUp = await fakeChromeSetUp(dir);
    launcher = createLocalLauncher({
      ...setUp,
      count: 1,
      isConnected: () => true,
      disconnectedRelaunchMs: 400,
    });
    await launcher.start();
    const args = await fakeChromeCommandLine(dir, launcher.pids()[0] as number);
    const file = path.join(commandLineFlag(args, '--load-extension') ?? '', LAUNCH_CONFIG_FILE);
    const before = LaunchConfig.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(before.token).toBeDefined();

    // Not spent yet: it stays, or the browser could never say its first hello.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(LaunchConfig.parse(JSON.parse(await readFile(file, 'utf8'))).token).toBe(before.token);

    // The hub spends it (the browser's first hello).
    expect(setUp.tokens.spend(before.token ?? '')).toBeDefined();
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
