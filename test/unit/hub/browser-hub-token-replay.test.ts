import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  HubCloseCode,
  PROTOCOL_VERSION,
  decodeServerMessage,
  type PageCapture,
  type ServerMessage,
} from '../../../shared/protocol/messages';
import type { createBrowserHub } from '../../../server/browsers/hub/create-browser-hub';
import type { DonatedBrowserDirectory } from '../../../server/browsers/hub/donated-browser-directory';
import type { NodeTokenDirectory } from '../../../server/browsers/hub/node-token-directory';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startHubOnLoopback, type HubOnLoopback } from '../../helpers/hub-on-loopback';
import { recordingLog, type LogLine } from '../../helpers/recording-log';
import { waitUntil } from '../../helpers/start-test-tabhive';

/**
 * N1b of the red-team report: a pool browser's hub credential, copied, let another socket say
 * `hello` as that browser; the new socket silently replaced the live one and got other teams'
 * tasks. Now a second hello never replaces a socket that answers, every hello spends its token,
 * and a spent token presented again revokes the browser, whoever holds the live socket.
 */
let lines: LogLine[] = [];

const capture: PageCapture = {
  url: 'http://site.test/',
  statusCode: 200,
  rawHtml: '<p>real</p>',
  renderedHtml: '<p>real</p>',
};
const spec = { url: 'http://site.test/', waitForMs: 0 };

let running: HubOnLoopback;

async function start(options: Partial<Parameters<typeof createBrowserHub>[0]> = {}) {
  const recorded = recordingLog();
  lines = recorded.lines;
  running = await startHubOnLoopback({ log: recorded.log, liveProbeMs: 300, ...options });
  return running;
}

afterEach(async () => {
  await running.close();
});

/** A browser whose socket stays open but answers nothing, not even pings: a dead peer unnoticed. */
async function connectDeadAfterWelcome(url: string, token: string) {
  const socket = new WebSocket(url, { autoPong: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const welcome = new Promise<Extract<ServerMessage, { type: 'welcome' }>>((resolve) => {
    socket.on('message', (data) => {
      const decoded = decodeServerMessage(data.toString());
      if (decoded.ok && decoded.message.type === 'welcome') resolve(decoded.message);
    });
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.send(
    JSON.stringify({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      token,
      extensionVersion: 'test',
      userAgent: 'fake-browser',
      lostTaskIds: [],
    }),
  );
  return { welcome: await welcome, closed, socket };
}

describe('a launched browser’s credentials', () => {
  it('cannot take over a connected browser: the second hello is refused and the first keeps its tasks', async () => {
    const { hub, tokens, hubUrl } = await start();
    const real = await connectFakeBrowser(hubUrl);
    real.hello(tokens.issueLaunchToken());
    const { browserId, sessionToken } = await real.next('welcome');

    const thief = await connectFakeBrowser(hubUrl);
    thief.hello(sessionToken);
    expect(await thief.closed).toEqual({
      code: HubCloseCode.ALREADY_CONNECTED,
      reason: 'this browser is connected on another socket',
    });

    const result = hub.runTask(spec, { timeoutMs: 10_000, teamId: 'team-b' });
    const task = await real.next('task');
    real.send({ type: 'result', taskId: task.taskId, ok: true, capture });
    await expect(result).resolves.toEqual(capture);
    expect(hub.browserStatuses().map((status) => status.browserId)).toEqual([browserId]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'browser refused',
        fields: expect.objectContaining({ browserId, closeCode: HubCloseCode.ALREADY_CONNECTED }),
      }),
    );
    expect(JSON.stringify(lines)).not.toContain(sessionToken);
    real.close();
  });

  it('rotates at each reconnect, and a spent token presented again revokes the browser', async () => {
    const { hub, tokens, hubUrl } = await start();
    const first = await connectFakeBrowser(hubUrl);
    first.hello(tokens.issueLaunchToken());
    const welcome = await first.next('welcome');
    first.close();
    await first.closed;
    await waitUntil(() => hub.connectedBrowsers() === 0, 2_000, 'the first socket to be gone');

    const reconnected = await connectFakeBrowser(hubUrl);
    reconnected.hello(welcome.sessionToken);
    const rewelcome = await reconnected.next('welcome');
    expect(rewelcome.browserId).toBe(welcome.browserId);
    expect(rewelcome.sessionToken).not.toBe(welcome.sessionToken);

    // A copy of the token the browser had before its reconnect.
    const thief = await connectFakeBrowser(hubUrl);
    thief.hello(welcome.sessionToken);
    expect((await thief.closed).code).toBe(HubCloseCode.UNAUTHORIZED);
    expect((await reconnected.closed).code).toBe(HubCloseCode.REVOKED);
    expect(hub.connectedBrowsers()).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'browser credentials replayed: browser revoked',
        fields: expect.objectContaining({ browserId: welcome.browserId, spentToken: 'session' }),
      }),
    );
    // The newest token is worthless too: the thief cannot keep the browser.
    const late = await connectFakeBrowser(hubUrl);
    late.hello(rewelcome.sessionToken);
    expect((await late.closed).code).toBe(HubCloseCode.REVOKED);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(welcome.sessionToken);
    expect(logged).not.toContain(rewelcome.sessionToken);
  });

  it('throws out a thief that got in first once the browser comes back with the same token', async () => {
    const { hub, tokens, hubUrl } = await start();
    const real = await connectFakeBrowser(hubUrl);
    real.hello(tokens.issueLaunchToken());
    const { browserId, sessionToken } = await real.next('welcome');
    // The browser's socket drops; a thief with a copy of its token says hello first.
    real.terminate();
    await waitUntil(() => hub.connectedBrowsers() === 0, 2_000, 'the dropped socket to be gone');
    const thief = await connectFakeBrowser(hubUrl);
    thief.hello(sessionToken);
    expect((await thief.next('welcome')).browserId).toBe(browserId);

    const back = await connectFakeBrowser(hubUrl);
    back.hello(sessionToken);
    expect((await back.closed).code).toBe(HubCloseCode.UNAUTHORIZED);
    expect((await thief.closed).code).toBe(HubCloseCode.REVOKED);
    expect(hub.isBrowserConnected(browserId)).toBe(false);

    // Nothing reaches the thief after the detection: another browser takes the task.
    const other = await connectFakeBrowser(hubUrl);
    other.hello(tokens.issueLaunchToken());
    await other.next('welcome');
    const result = hub.runTask(spec, { timeoutMs: 10_000, teamId: 'team-b' });
    const task = await other.next('task');
    other.send({ type: 'result', taskId: task.taskId, ok: true, capture });
    await expect(result).resolves.toEqual(capture);
    await expect(thief.next('task', 200)).rejects.toThrow(/socket closed/);
    other.close();
  });

  it('takes the same token twice at once for a replay: neither hello keeps the browser', async () => {
    const { hub, tokens, hubUrl } = await start();
    const launchToken = tokens.issueLaunchToken();
    const [a, b] = await Promise.all([connectFakeBrowser(hubUrl), connectFakeBrowser(hubUrl)]);
    a.hello(launchToken);
    b.hello(launchToken);
    const codes = (await Promise.all([a.closed, b.closed])).map((closed) => closed.code).sort();
    expect(codes).toEqual([HubCloseCode.UNAUTHORIZED, HubCloseCode.REVOKED]);
    expect(hub.connectedBrowsers()).toBe(0);
  });

  it('lets the browser back in when its old socket stopped answering (a worker restart unnoticed)', async () => {
    const { hub, tokens, hubUrl } = await start();
    const stale = await connectDeadAfterWelcome(hubUrl, tokens.issueLaunchToken());
    const back = await connectFakeBrowser(hubUrl);
    back.hello(stale.welcome.sessionToken);
    expect((await back.next('welcome')).browserId).toBe(stale.welcome.browserId);
    await stale.closed;
    expect(hub.browserStatuses().map((status) => status.browserId)).toEqual([stale.welcome.browserId]);
    back.close();
  });
});

describe('a donated browser’s device token', () => {
  const donatedBrowsers: DonatedBrowserDirectory = {
    find: async (token) =>
      token === 'device-token'
        ? { browserId: 'donor-1', team: { id: 'team-a', name: 'Team A' }, revoked: false }
        : undefined,
    connected: async () => undefined,
    revokedAmong: async () => [],
  };

  it('cannot open a second connection while the first answers', async () => {
    const { hub, hubUrl } = await start({ donatedBrowsers });
    const person = await connectFakeBrowser(hubUrl);
    person.hello('device-token');
    await person.next('welcome');
    const thief = await connectFakeBrowser(hubUrl);
    thief.hello('device-token');
    expect((await thief.closed).code).toBe(HubCloseCode.ALREADY_CONNECTED);
    expect(hub.isBrowserConnected('donor-1')).toBe(true);
    person.send({ type: 'heartbeat', sentAt: Date.now() });
    expect(lines.some((line) => line.message === 'browser disconnected')).toBe(false);
    person.close();
  });

  it('lets the person’s browser back in when its old socket stopped answering', async () => {
    const { hub, hubUrl } = await start({ donatedBrowsers });
    const stale = await connectDeadAfterWelcome(hubUrl, 'device-token');
    const back = await connectFakeBrowser(hubUrl);
    back.hello('device-token');
    expect((await back.next('welcome')).browserId).toBe('donor-1');
    await stale.closed;
    expect(hub.isBrowserConnected('donor-1')).toBe(true);
    back.close();
  });
});

describe('a node token', () => {
  it('gives each browser its own id: a second browser never replaces the first', async () => {
    const nodeTokens: NodeTokenDirectory = {
      find: async (token) =>
        token === 'tbn_node' ? { tokenId: 'node_1', teamId: null, revoked: false } : undefined,
      revokedAmong: async () => [],
      seen: async () => undefined,
    };
    const { hub, hubUrl } = await start({ nodeTokens });
    const first = await connectFakeBrowser(hubUrl);
    first.hello('tbn_node');
    const one = await first.next('welcome');
    const second = await connectFakeBrowser(hubUrl);
    second.hello('tbn_node');
    const two = await second.next('welcome');
    expect(two.browserId).not.toBe(one.browserId);
    expect(hub.isBrowserConnected(one.browserId)).toBe(true);
    expect(hub.connectedBrowsers()).toBe(2);
    first.close();
    second.close();
  });
});
