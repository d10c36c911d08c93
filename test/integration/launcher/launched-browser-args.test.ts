import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { createBrowserTokens } from '../../../server/hub/browser-tokens';
import { SCRAPING_PROFILE_ARGS } from '../../../server/launcher/chrome-args';
import { createLocalLauncher, type LocalLauncher } from '../../../server/launcher/create-local-launcher';
import { startStealthBrowsers } from '../../../server/launcher/start-stealth-browsers';
import { silentLog } from '../../../server/log';
import { waitUntil } from '../../helpers/start-test-tabhive';

/** A stand-in for Chromium that writes its command line, one argument a line, and lives on. */
async function fakeChrome(dir: string): Promise<string> {
  const script = path.join(dir, 'fake-chrome.sh');
  await writeFile(
    script,
    ['#!/bin/sh', `printf '%s\\n' "$@" > "${path.join(dir, 'args-$$.log')}"`, 'exec sleep 600'].join('\n'),
  );
  await chmod(script, 0o755);
  return script;
}

async function commandLine(dir: string, pid: number): Promise<string[]> {
  const file = path.join(dir, `args-${pid}.log`);
  await waitUntil(async () => (await readFile(file, 'utf8').catch(() => '')).length > 0, 5_000, 'the args');
  return (await readFile(file, 'utf8')).trim().split('\n');
}

describe('browsers the server launches', () => {
  let dir: string;
  let launchers: LocalLauncher[] = [];
  afterEach(async () => {
    await Promise.all(launchers.map((launcher) => launcher.stop()));
    launchers = [];
    await rm(dir, { recursive: true, force: true });
  });

  it('all run the scraping profile, stealth browsers included', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-launch-args-'));
    const extensionDir = path.join(dir, 'extension');
    await mkdir(extensionDir, { recursive: true });
    await writeFile(path.join(extensionDir, 'manifest.json'), '{}');
    const chromePath = await fakeChrome(dir);
    const deps = {
      chromePath,
      extensionDir,
      hubUrl: 'ws://127.0.0.1:9/browser-hub',
      tokens: createBrowserTokens(),
      log: silentLog,
    };
    const pool = createLocalLauncher({ ...deps, count: 1 });
    const stealth = startStealthBrowsers({
      ...deps,
      config: loadConfig({ STEALTH_PROXY_URL: 'http://10.0.0.2:3128', STEALTH_BROWSERS: '1' }),
    });
    expect(stealth).toBeDefined();
    launchers = [pool, stealth as LocalLauncher];
    for (const launcher of launchers) await launcher.start();

    const [poolArgs, stealthArgs] = await Promise.all(
      launchers.map((launcher) => commandLine(dir, launcher.pids()[0] as number)),
    );
    for (const args of [poolArgs ?? [], stealthArgs ?? []]) {
      expect(args).toEqual(expect.arrayContaining([...SCRAPING_PROFILE_ARGS]));
      expect(args.filter((arg) => arg.startsWith('--disable-features='))).toHaveLength(1);
    }
    expect(stealthArgs).toContain('--proxy-server=http://10.0.0.2:3128');
    expect((poolArgs ?? []).some((arg) => arg.startsWith('--proxy-server='))).toBe(false);
  });
});
