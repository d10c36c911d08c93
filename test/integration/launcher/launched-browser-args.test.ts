import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { SCRAPING_PROFILE_ARGS } from '../../../server/browsers/launcher/chrome-args';
import {
  createLocalLauncher,
  type LocalLauncher,
} from '../../../server/browsers/launcher/create-local-launcher';
import { startStealthBrowsers } from '../../../server/browsers/launcher/start-stealth-browsers';
import { fakeChromeCommandLine, fakeChromeSetUp } from '../../helpers/fake-chrome';

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
    const deps = await fakeChromeSetUp(dir);
    const pool = createLocalLauncher({ ...deps, count: 1 });
    const stealth = startStealthBrowsers({
      ...deps,
      config: loadConfig({ STEALTH_PROXY_URL: 'http://10.0.0.2:3128', STEALTH_BROWSERS: '1' }),
    });
    expect(stealth).toBeDefined();
    launchers = [pool, stealth as LocalLauncher];
    for (const launcher of launchers) await launcher.start();

    const [poolArgs, stealthArgs] = await Promise.all(
      launchers.map((launcher) => fakeChromeCommandLine(dir, launcher.pids()[0] as number)),
    );
    for (const args of [poolArgs ?? [], stealthArgs ?? []]) {
      expect(args).toEqual(expect.arrayContaining([...SCRAPING_PROFILE_ARGS]));
      expect(args.filter((arg) => arg.startsWith('--disable-features='))).toHaveLength(1);
    }
    expect(stealthArgs).toContain('--proxy-server=http://10.0.0.2:3128');
    expect((poolArgs ?? []).some((arg) => arg.startsWith('--proxy-server='))).toBe(false);
  });
});
