import { describe, expect, it } from 'vitest';
import {
  DISABLED_FEATURES,
  DISK_CACHE_BYTES,
  SCRAPING_PROFILE_ARGS,
  chromeArgs,
} from '../../../server/browsers/launcher/chrome-args';

const START_URL = 'chrome-extension://x/launch.html';

function launchedArgs(options: { runningAsRoot?: boolean; extraArgs?: string[] } = {}) {
  return chromeArgs({
    profileDir: '/profile',
    extensionDir: '/extension',
    startUrl: START_URL,
    runningAsRoot: options.runningAsRoot ?? false,
    ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }),
  });
}

describe('the command line of a launched pool browser', () => {
  it('runs the scraping profile: no site isolation, the compositor in the browser process, a bounded cache', () => {
    const args = launchedArgs();
    expect(args).toEqual(expect.arrayContaining([...SCRAPING_PROFILE_ARGS]));
    expect(args).toContain('--disable-site-isolation-trials');
    expect(args).toContain('--in-process-gpu');
    expect(args).toContain(`--disk-cache-size=${DISK_CACHE_BYTES}`);
    expect(DISK_CACHE_BYTES).toBe(32 * 1024 * 1024);
  });

  it('keeps a renderer per task tab, so that a page stuck in a loop stalls no other tab', () => {
    expect(launchedArgs().some((arg) => arg.startsWith('--renderer-process-limit'))).toBe(false);
    expect(launchedArgs()).not.toContain('--single-process');
  });

  it('does not throttle task windows, which are never focused and may cover each other', () => {
    expect(launchedArgs()).toEqual(
      expect.arrayContaining([
        '--disable-background-timer-throttling',
        '--disable-renderer-backgrounding',
        '--disable-backgrounding-occluded-windows',
      ]),
    );
  });

  it('disables its features in one switch, since Chromium reads only the last one', () => {
    const switches = launchedArgs().filter((arg) => arg.startsWith('--disable-features='));
    expect(switches).toEqual([`--disable-features=${DISABLED_FEATURES.join(',')}`]);
    expect(DISABLED_FEATURES).toEqual(
      expect.arrayContaining([
        'WebUIOmniboxPopup',
        'WebUIOmniboxAimPopup',
        'WebUIOmniboxFullPopup',
        'SpareRendererForSitePerProcess',
      ]),
    );
    expect(launchedArgs().filter((arg) => arg.startsWith('--enable-features='))).toEqual([]);
  });

  it('keeps the sandbox unless it runs as root, where Chromium cannot start one', () => {
    expect(launchedArgs()).not.toContain('--no-sandbox');
    expect(launchedArgs({ runningAsRoot: true })).toContain('--no-sandbox');
  });

  it('loads only the staged extension, in its own profile, and ends with the start page after extra flags', () => {
    const args = launchedArgs({ extraArgs: ['--host-resolver-rules=MAP a.test 127.0.0.1'] });
    expect(args).toEqual(
      expect.arrayContaining([
        '--headless',
        '--user-data-dir=/profile',
        '--load-extension=/extension',
        '--disable-extensions-except=/extension',
      ]),
    );
    expect(args.slice(-2)).toEqual(['--host-resolver-rules=MAP a.test 127.0.0.1', START_URL]);
  });
});
