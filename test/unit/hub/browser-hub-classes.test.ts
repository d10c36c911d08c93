import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { BrowserTokens } from '../../../server/browsers/launch-tokens/browser-tokens';
import type { BrowserHub } from '../../../server/browsers/hub/create-browser-hub';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startHubOnLoopback, type HubOnLoopback } from '../../helpers/hub-on-loopback';

const capture: PageCapture = { url: 'http://site.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };
const spec = { url: 'http://site.test/', waitForMs: 0 };

let running: HubOnLoopback;
let hub: BrowserHub;
let tokens: BrowserTokens;
let hubUrl: string;

beforeEach(async () => {
  running = await startHubOnLoopback();
  ({ hub, tokens, hubUrl } = running);
});
afterEach(() => running.close());

describe('browser classes and status on the hub', () => {
  it('counts browsers by the class they announce and routes tasks by class', async () => {
    const basic = await connectFakeBrowser(hubUrl);
    basic.hello(tokens.issueLaunchToken());
    await basic.next('welcome');
    const stealth = await connectFakeBrowser(hubUrl);
    stealth.hello(tokens.issueLaunchToken(), { browserClass: 'stealth' });
    await stealth.next('welcome');
    expect([
      hub.connectedBrowsers(),
      hub.connectedBrowsers('basic'),
      hub.connectedBrowsers('stealth'),
    ]).toEqual([2, 1, 1]);

    const result = hub.runTask(spec, { timeoutMs: 5_000, browserClass: 'stealth' });
    const task = await stealth.next('task');
    stealth.send({ type: 'result', taskId: task.taskId, ok: true, capture });
    await expect(result).resolves.toEqual(capture);
    basic.close();
    stealth.close();
  });

  it('keeps the status a browser reports with its heartbeats', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken());
    const { browserId } = await browser.next('welcome');
    expect(hub.browserStatuses()).toEqual([{ browserId, browserClass: 'basic', status: undefined }]);
    const status = { runningTasks: 0, windows: 1, debuggerSessions: 0, sessionRules: 0, pooledTabs: 2 };
    browser.send({ type: 'heartbeat', sentAt: Date.now(), status });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.browserStatuses()).toEqual([{ browserId, browserClass: 'basic', status }]);
    browser.close();
  });
});
