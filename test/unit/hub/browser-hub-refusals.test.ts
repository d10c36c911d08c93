import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  HUB_PATH,
  HubCloseCode,
  PROTOCOL_VERSION,
  type PageCapture,
} from '../../../shared/protocol/messages';
import type { BrowserTokens } from '../../../server/browsers/launch-tokens/browser-tokens';
import {
  MAX_FRAME_BYTES,
  type BrowserHub,
  type createBrowserHub,
} from '../../../server/browsers/hub/create-browser-hub';
import type { DonatedBrowserDirectory } from '../../../server/browsers/hub/donated-browser-directory';
import { PRE_AUTH_MAX_FRAME_BYTES } from '../../../server/browsers/hub/frame-limit';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startHubOnLoopback, type HubOnLoopback } from '../../helpers/hub-on-loopback';
import { recordingLog, type LogLine } from '../../helpers/recording-log';
import { waitUntil } from '../../helpers/start-test-tabhive';

/**
 * Red-team finding M4 and the refusals around it: what a socket can cost the hub before its hello
 * is accepted, and that every socket the hub turns away leaves a log line saying why.
 */
let lines: LogLine[] = [];
const refusals = () => lines.filter((line) => line.message === 'browser refused').map((line) => line.fields);

let running: HubOnLoopback;
let hub: BrowserHub;
let tokens: BrowserTokens;
let port: number;
let hubUrl: string;
const rawSockets: Socket[] = [];

async function start(options: Partial<Parameters<typeof createBrowserHub>[0]> = {}) {
  const recorded = recordingLog();
  lines = recorded.lines;
  running = await startHubOnLoopback({ log: recorded.log, ...options });
  ({ hub, tokens, port, hubUrl } = running);
}

afterEach(async () => {
  for (const socket of rawSockets.splice(0)) socket.destroy();
  await running.close();
});

/**
 * A hand-made WebSocket client that opens the hub socket and then sends the header of one text
 * frame of `declaredBytes` followed by only `sentBytes` of its payload, as the start of a huge
 * upload would. Resolves with the close code the server sent, or undefined if the connection
 * ended without one.
 */
async function partialFrame(declaredBytes: number, sentBytes: number): Promise<number | undefined> {
  const socket = connect(port, '127.0.0.1');
  rawSockets.push(socket);
  socket.on('error', () => undefined);
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  let closeCode: number | undefined;
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const opened = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        expect(buffer.subarray(0, end).toString()).toMatch(/^HTTP\/1\.1 101 /);
        buffer = buffer.subarray(end + 4);
        upgraded = true;
        resolve();
      }
      // Server frames are unmasked; a close frame is 0x88, its length, then the code.
      if (buffer.length >= 4 && buffer[0] === 0x88) closeCode = buffer.readUInt16BE(2);
    });
  });
  socket.write(
    `GET ${HUB_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  await opened;
  // FIN + text, masked with a 64-bit length, and a zero mask key (legal, and it leaves bytes as they are).
  const header = Buffer.alloc(14);
  header[0] = 0x81;
  header[1] = 0x80 | 127;
  header.writeBigUInt64BE(BigInt(declaredBytes), 2);
  socket.write(header);
  socket.write(Buffer.alloc(sentBytes, 0x78));
  await ended;
  return closeCode;
}

describe('what a socket may cost before its hello is accepted (M4)', () => {
  it('closes sockets that start 60 MiB frames with 1009 before the frames arrive, and logs each', async () => {
    await start();
    // Each sends 256 KiB of its 60 MiB and then waits: only a server that refuses at the header ends it.
    const codes = await Promise.all(
      Array.from({ length: 6 }, () => partialFrame(60 * 1024 * 1024, 256 * 1024)),
    );
    expect(codes).toEqual(Array.from({ length: 6 }, () => 1009));
    expect(refusals()).toEqual(
      Array.from({ length: 6 }, () =>
        expect.objectContaining({
          reason: `frame larger than ${PRE_AUTH_MAX_FRAME_BYTES} bytes before hello`,
          closeCode: 1009,
          remoteAddress: '127.0.0.1',
        }),
      ),
    );
  });

  it('still takes a hello, and then results far larger than the pre-hello limit', async () => {
    await start();
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken());
    await browser.next('welcome');
    const spec = { url: 'http://site.test/', waitForMs: 0 };
    const result = hub.runTask(spec, { timeoutMs: 30_000 });
    const task = await browser.next('task');
    // A big page, as screenshots and PDFs make them: far past 64 KiB, within MAX_FRAME_BYTES.
    const rawHtml = `<p>${'x'.repeat(16 * 1024 * 1024)}</p>`;
    expect(rawHtml.length).toBeLessThan(MAX_FRAME_BYTES);
    const capture: PageCapture = { url: spec.url, statusCode: 200, rawHtml, renderedHtml: '<p>x</p>' };
    browser.send({ type: 'result', taskId: task.taskId, ok: true, capture });
    expect((await result).rawHtml.length).toBe(rawHtml.length);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    browser.close();
  });

  it('takes the largest hello the protocol allows, a donated browser’s with 500 long domains', async () => {
    const donatedBrowsers: DonatedBrowserDirectory = {
      find: async () => ({ browserId: 'donated-1', team: { id: 'team-a', name: 'A' }, revoked: false }),
      connected: async () => undefined,
      revokedAmong: async () => [],
    };
    await start({ donatedBrowsers });
    const allowedDomains = Array.from(
      { length: 500 },
      (_, i) => `${String(i).padStart(3, '0')}${'a'.repeat(245)}.test`,
    );
    const donation = { enabled: true, allowedDomains, maxTabs: 16, allowJavascript: true };
    const lostTaskIds = Array.from({ length: 32 }, () => crypto.randomUUID());
    expect(JSON.stringify(donation).length).toBeGreaterThan(120_000);
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello('device-token', { donation, lostTaskIds });
    expect((await browser.next('welcome')).browserId).toBe('donated-1');
    expect(refusals()).toEqual([]);
    browser.close();
  });

  it('refuses sockets beyond the pending limit with BUSY, and takes new ones once hellos are in', async () => {
    await start({ maxPendingSockets: 3 });
    const pending = await Promise.all([1, 2, 3].map(() => connectFakeBrowser(hubUrl)));
    const extra = await connectFakeBrowser(hubUrl);
    expect((await extra.closed).code).toBe(HubCloseCode.BUSY);
    expect(refusals()).toEqual([
      expect.objectContaining({
        reason: 'too many browsers are connecting at once',
        closeCode: HubCloseCode.BUSY,
      }),
    ]);
    // A browser whose hello is accepted is no longer pending: there is room again.
    pending[0]!.hello(tokens.issueLaunchToken());
    await pending[0]!.next('welcome');
    const next = await connectFakeBrowser(hubUrl);
    next.hello(tokens.issueLaunchToken());
    await next.next('welcome');
    expect(hub.connectedBrowsers()).toBe(2);
    for (const browser of [...pending, next]) browser.close();
  });
});

describe('every refusal leaves a log line with its reason', () => {
  it('a web page’s Origin', async () => {
    await start();
    const socket = new WebSocket(hubUrl, { headers: { origin: 'https://attacker.test' } });
    const status = await new Promise<number | undefined>((resolve) => {
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      socket.on('error', () => resolve(undefined));
    });
    socket.terminate();
    expect(status).toBe(403);
    expect(refusals()).toEqual([
      expect.objectContaining({ reason: 'origin not allowed', status: 403, origin: 'https://attacker.test' }),
    ]);
  });

  it('an unknown token, and a launch token that was already spent (by which browser)', async () => {
    await start();
    const unknown = await connectFakeBrowser(hubUrl);
    unknown.hello('not-a-token');
    expect((await unknown.closed).code).toBe(HubCloseCode.UNAUTHORIZED);

    const launchToken = tokens.issueLaunchToken();
    const first = await connectFakeBrowser(hubUrl);
    first.hello(launchToken);
    const { browserId } = await first.next('welcome');
    const second = await connectFakeBrowser(hubUrl);
    second.hello(launchToken);
    expect((await second.closed).code).toBe(HubCloseCode.UNAUTHORIZED);
    expect(refusals()).toEqual([
      expect.objectContaining({ reason: 'unknown or spent token', token: 'unknown', closeCode: 4401 }),
      expect.objectContaining({
        reason: 'unknown or spent token',
        token: 'launch token already spent',
        spentBy: browserId,
        extensionVersion: 'test',
      }),
    ]);
    // Never the token itself.
    expect(JSON.stringify(lines)).not.toContain(launchToken);
    first.close();
  });

  it('another protocol version', async () => {
    await start();
    const browser = await connectFakeBrowser(hubUrl);
    browser.hello(tokens.issueLaunchToken(), { protocolVersion: PROTOCOL_VERSION + 1 });
    expect((await browser.closed).code).toBe(HubCloseCode.VERSION_MISMATCH);
    expect(refusals()).toEqual([
      expect.objectContaining({ closeCode: 4426, protocolVersion: PROTOCOL_VERSION + 1 }),
    ]);
  });

  it('no hello in time, a first message that is not a hello, and garbage', async () => {
    await start({ helloTimeoutMs: 300 });
    const silent = await connectFakeBrowser(hubUrl);
    expect((await silent.closed).code).toBe(HubCloseCode.BAD_HELLO);
    const early = await connectFakeBrowser(hubUrl);
    early.send({ type: 'heartbeat', sentAt: 1 });
    expect((await early.closed).code).toBe(HubCloseCode.BAD_HELLO);
    const garbage = await connectFakeBrowser(hubUrl);
    // Garbage many times over: one refusal, one line.
    for (let i = 0; i < 20; i += 1) garbage.sendRaw('{not json');
    expect((await garbage.closed).code).toBe(HubCloseCode.BAD_HELLO);
    expect(refusals()).toEqual([
      expect.objectContaining({ reason: 'no hello in time' }),
      expect.objectContaining({ reason: 'expected hello', messageType: 'heartbeat' }),
      expect.objectContaining({ reason: 'expected hello', error: expect.any(String) }),
    ]);
  });

  it('a revoked donated browser, and a store that cannot say', async () => {
    let storeDown = false;
    const donatedBrowsers: DonatedBrowserDirectory = {
      find: async () => {
        if (storeDown) throw new Error('store unavailable');
        return { browserId: 'donated-1', team: { id: 'team-a', name: 'A' }, revoked: true };
      },
      connected: async () => undefined,
      revokedAmong: async () => [],
    };
    await start({ donatedBrowsers });
    const revoked = await connectFakeBrowser(hubUrl);
    revoked.hello('device-token');
    expect((await revoked.closed).code).toBe(HubCloseCode.REVOKED);
    storeDown = true;
    const unchecked = await connectFakeBrowser(hubUrl);
    unchecked.hello('device-token');
    expect((await unchecked.closed).code).toBe(1013);
    await waitUntil(() => refusals().length === 2, 5_000, 'two refusals');
    expect(refusals()).toEqual([
      expect.objectContaining({ closeCode: 4403, browserId: 'donated-1', teamId: 'team-a' }),
      expect.objectContaining({ closeCode: 1013, error: 'Error: store unavailable' }),
    ]);
  });
});
