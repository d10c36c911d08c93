import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubCloseCode, PROTOCOL_VERSION, type PageCapture } from '../../../shared/protocol/messages';
import type { BrowserTokens } from '../../../server/browsers/launch-tokens/browser-tokens';
import type { BrowserHub } from '../../../server/browsers/hub/create-browser-hub';
import { WebSocket } from 'ws';
import { EXTENSION_ID } from '../../../shared/extension-identity';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startHubOnLoopback, type HubOnLoopback } from '../../helpers/hub-on-loopback';

const capture: PageCapture = {
  url: 'http://site.test/',
  statusCode: 200,
  rawHtml: '<p>x</p>',
  renderedHtml: '<p>x</p>',
};
const spec = { url: 'http://site.test/', waitForMs: 0 };

let running: HubOnLoopback;
let hub: BrowserHub;
let tokens: BrowserTokens;
let hubUrl: string;

async function start(options: { heartbeatIntervalMs?: number; livenessTimeoutMs?: number } = {}) {
  running = await startHubOnLoopback(options);
  ({ hub, tokens, hubUrl } = running);
}

beforeEach(async () => start());
afterEach(() => running.close());

/** How an upgrade with this Origin header ends: opened, or refused with an HTTP status. */
function upgradeWithOrigin(origin: string): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(hubUrl, { headers: { origin } });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => reject(error));
  });
}

describe('browser hub', () => {
  it('opens hub sockets for the extension’s origin and none for a web page’s', async () => {
    expect(await upgradeWithOrigin(`chrome-extension://${EXTENSION_ID}`)).toBe('open');
    expect(await upgradeWithOrigin('https://attacker.test')).toBe(403);
    expect(await upgradeWithOrigin('chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).toBe(403);
    expect(await upgradeWithOrigin('null')).toBe(403);
  });

  it('welcomes a browser with a launch token and hands out a session token for reconnects', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken());
    const welcome = await browser.next('welcome');
    expect(welcome.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(welcome.maxConcurrentTasks).toBe(2);
    expect(hub.connectedBrowsers()).toBe(1);

    browser.close();
    await browser.closed;
    const again = await connectFakeBrowser(hubUrl);
    again.hello(welcome.sessionToken);
    expect((await again.next('welcome')).browserId).toBe(welcome.browserId);
    again.close();
  });

  it('refuses a launch token the second time', async () => {
    const token = tokens.issueLaunchToken();
    const first = await connectFakeBrowser(hubUrl);
    first.hello(token);
    await first.next('welcome');
    const second = await connectFakeBrowser(hubUrl);
    second.hello(token);
    expect((await second.closed).code).toBe(HubCloseCode.UNAUTHORIZED);
    first.close();
  });

  it('refuses a revoked launch token and the session that came from it', async () => {
    const token = tokens.issueLaunchToken();
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(token);
    const { sessionToken } = await browser.next('welcome');
    tokens.revokeLaunchToken(token);
    const again = await connectFakeBrowser(hubUrl);
    again.hello(sessionToken);
    expect((await again.closed).code).toBe(HubCloseCode.UNAUTHORIZED);
    browser.close();
  });

  it('closes a socket whose first message is not a hello', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.send({ type: 'heartbeat', sentAt: 1 });
    expect((await browser.closed).code).toBe(HubCloseCode.BAD_HELLO);
  });

  it('closes a socket that sends garbage before its hello, without crashing', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.sendRaw('{not json');
    expect((await browser.closed).code).toBe(HubCloseCode.BAD_HELLO);
    const healthy = await connectFakeBrowser(hubUrl);
    healthy.hello(tokens.issueLaunchToken());
    await healthy.next('welcome');
    healthy.close();
  });

  it('refuses another protocol version', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken(), { protocolVersion: PROTOCOL_VERSION + 1 });
    expect((await browser.closed).code).toBe(HubCloseCode.VERSION_MISMATCH);
  });

  it('runs a task on a browser and returns its capture', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken());
    await browser.next('welcome');
    const result = hub.runTask(spec, { timeoutMs: 10_000 });
    const task = await browser.next('task');
    expect(task.spec).toEqual(spec);
    expect(task.timeoutMs).toBeGreaterThan(9_000);
    browser.send({ type: 'result', taskId: task.taskId, ok: true, capture });
    await expect(result).resolves.toEqual(capture);
    browser.close();
  });

  it('keeps going after an invalid message from a connected browser', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken());
    await browser.next('welcome');
    const result = hub.runTask(spec, { timeoutMs: 10_000 });
    const task = await browser.next('task');
    browser.send({ type: 'result', taskId: task.taskId, ok: true, capture: { url: 42 } });
    browser.sendRaw('][');
    browser.send({
      type: 'result',
      taskId: task.taskId,
      ok: false,
      error: { code: 'SCRAPE_SITE_ERROR', message: 'net::ERR_FAILED' },
    });
    await expect(result).rejects.toMatchObject({ code: 'SCRAPE_SITE_ERROR', message: 'net::ERR_FAILED' });
    browser.close();
  });

  it('does not let one browser answer for a task it was not given', async () => {
    const holder = await connectFakeBrowser(hubUrl);
    holder.hello(tokens.issueLaunchToken());
    await holder.next('welcome');
    const result = hub.runTask(spec, { timeoutMs: 10_000 });
    const task = await holder.next('task');
    const intruder = await connectFakeBrowser(hubUrl);
    intruder.hello(tokens.issueLaunchToken());
    await intruder.next('welcome');
    intruder.send({
      type: 'result',
      taskId: task.taskId,
      ok: true,
      capture: { ...capture, rawHtml: 'forged' },
    });
    holder.send({ type: 'result', taskId: task.taskId, ok: true, capture });
    await expect(result).resolves.toEqual(capture);
    holder.close();
    intruder.close();
  });

  it('retries the task of a browser that disconnects on another browser', async () => {
    const first = await connectFakeBrowser(hubUrl);
    first.hello(tokens.issueLaunchToken());
    await first.next('welcome');
    const result = hub.runTask(spec, { timeoutMs: 10_000 });
    const task = await first.next('task');
    const second = await connectFakeBrowser(hubUrl);
    second.hello(tokens.issueLaunchToken());
    await second.next('welcome');
    first.terminate();
    const retried = await second.next('task');
    expect(retried.taskId).toBe(task.taskId);
    second.send({ type: 'result', taskId: retried.taskId, ok: true, capture });
    await expect(result).resolves.toEqual(capture);
    second.close();
  });

  it('fails a task with a clear error when no browser is there to take it', async () => {
    await expect(hub.runTask(spec, { timeoutMs: 10_000 })).rejects.toMatchObject({ code: 'NO_BROWSER' });
  });
});

describe('browser hub heartbeats', () => {
  beforeEach(async () => {
    await running.close();
    await start({ heartbeatIntervalMs: 100, livenessTimeoutMs: 400 });
  });

  it('sends application heartbeats and drops a browser that stays silent', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken());
    await browser.next('welcome');
    await browser.next('heartbeat');
    expect((await browser.closed).code).toBe(HubCloseCode.SILENT);
    expect(hub.connectedBrowsers()).toBe(0);
  });

  it('keeps a browser that answers heartbeats', async () => {
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken());
    await browser.next('welcome');
    for (let i = 0; i < 8; i += 1) {
      await browser.next('heartbeat');
      browser.send({ type: 'heartbeat', sentAt: Date.now() });
    }
    expect(hub.connectedBrowsers()).toBe(1);
    browser.close();
  });
});
