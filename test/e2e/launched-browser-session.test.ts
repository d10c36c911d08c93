import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageLaunchedExtension } from '../../server/browsers/launcher/stage-launched-extension';
import { EXTENSION_ID } from '../../shared/extension-identity';
import { HUB_PATH } from '../../shared/protocol/messages';
import { startExtensionBrowser } from '../helpers/extension-browser';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * The "silent dead pool" of issue 17: a launched browser connected, and was dropped in the same
 * millisecond for good. The suspected cause: the launch page and the worker both stored the
 * one-time launch token, and a late second write put the spent token back in place of the session
 * token, so the worker reconnected with it and was refused. Here a browser launched as the
 * launcher does it (its extension staged with a launch config) but driven by the test has that
 * late write forced on it: it must keep its session. (A worker that restarts reconnects with the
 * stored session token: worker-restart.test.ts stops a launched browser's worker from outside.)
 */

declare const chrome: {
  storage: { local: { set(items: object): Promise<void> } };
};

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let browser: Awaited<ReturnType<typeof startExtensionBrowser>>;
let stagingDir: string;
let launchToken: string;
let hubUrl: string;

beforeAll(async () => {
  tabhive = await startTestTabhive({ browsers: 0 });
  hubUrl = `ws://${new URL(tabhive.url).host}${HUB_PATH}`;
  launchToken = tabhive.tabhive.browserTokens.issueLaunchToken();
  stagingDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-staged-'));
  const extensionDir = await stageLaunchedExtension({
    extensionDir: path.resolve('.output/chrome-mv3'),
    profileDir: stagingDir,
    launch: { serverUrl: hubUrl, token: launchToken, browserClass: 'basic' },
  });
  browser = await startExtensionBrowser({ extensionDir });
});
afterAll(async () => {
  await browser?.close();
  await tabhive?.stop();
  if (stagingDir !== undefined) await rm(stagingDir, { recursive: true, force: true });
});

const browserIds = () => tabhive.tabhive.hub.browserStatuses().map((status) => status.browserId);

describe('a launched browser', () => {
  it('connects with the launch token from its own extension, and keeps its session when the spent token is written back', async () => {
    await waitUntil(
      () => tabhive.tabhive.hub.connectedBrowsers() === 1,
      15_000,
      'the launched browser to connect',
    );
    const [browserId] = browserIds();
    // The launch token is spent: the hub takes it for a replay from now on.
    expect(tabhive.tabhive.browserTokens.check(launchToken)).toEqual({
      kind: 'replayed',
      browserId,
      spentToken: 'launch',
    });

    // The late write: the spent launch token stored as the settings, the old launch link opened.
    const page = await browser.context.newPage();
    await page.goto(`chrome-extension://${EXTENSION_ID}/launch.html`);
    await page.evaluate(
      ({ serverUrl, token }) =>
        chrome.storage.local.set({ hub: { serverUrl, token, origin: 'launched', browserClass: 'basic' } }),
      { serverUrl: hubUrl, token: launchToken },
    );
    await page.goto(
      `chrome-extension://${EXTENSION_ID}/launch.html#${new URLSearchParams({ server: hubUrl, token: launchToken })}`,
    );
    expect(await page.textContent('#status')).toBe('This browser works for a Tabhive server.');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(browserIds()).toEqual([browserId]);
    expect(tabhive.tabhive.hub.connectedBrowsers()).toBe(1);
  });
});
