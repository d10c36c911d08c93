import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_DEBUGGING_PIPE_ARGS } from '../../server/browsers/launcher/chrome-args';
import { findChrome } from '../../server/browsers/launcher/find-chrome';
import { startBotDetectionSite } from '../helpers/bot-detection-site';

/**
 * A browser node's browsers take their DevTools on a pipe (create-local-launcher.ts's
 * remoteDebuggingPipe). `--remote-debugging-pipe` alone makes `navigator.webdriver` true; with
 * REMOTE_DEBUGGING_PIPE_ARGS the detector page finds it false, its getter native.
 */
let site: Awaited<ReturnType<typeof startBotDetectionSite>>;
let profileDir: string;
let chrome: ChildProcess | undefined;

beforeAll(async () => {
  site = await startBotDetectionSite();
  profileDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-pipe-test-'));
});
afterAll(async () => {
  if (chrome?.pid !== undefined) process.kill(-chrome.pid, 'SIGKILL');
  await rm(profileDir, { recursive: true, force: true });
  await site?.close();
});

describe('a browser with DevTools on a pipe', () => {
  it('keeps navigator.webdriver false', async () => {
    chrome = spawn(
      findChrome(process.env.CHROME_PATH),
      [
        '--headless',
        ...REMOTE_DEBUGGING_PIPE_ARGS,
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        '--no-first-run',
        `--user-data-dir=${profileDir}`,
        site.url('pipe'),
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true },
    );
    const report = await site.report('pipe');
    expect(report.checks.webdriver).toEqual({ flagged: false, detail: false });
    expect(report.checks.nativeFunctions).toEqual({ flagged: false, detail: [] });
  });
});
