import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Log } from '../../server/platform/log/log';
import { EXTENSION_ID } from '../../shared/extension-identity';
import { LAUNCH_CONFIG_FILE } from '../../shared/protocol/launch-config';
import { HUB_PATH, HubCloseCode } from '../../shared/protocol/messages';
import { connectDevtools } from '../helpers/devtools-client';
import { connectFakeBrowser } from '../helpers/fake-browser-client';
import { startFixtureSite } from '../helpers/fixture-site';
import { freePort } from '../helpers/free-port';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * N1b of the red-team report, end to end: a launched pool browser's hub credential, stolen, let a
 * plain WebSocket client say `hello` as the pool browser, take its place and receive other teams'
 * tasks (with their upstream Authorization). Here the thief holds the browser's current session
 * token (read from the worker over a debugging port only this test opens: the token is no longer
 * anywhere a file read or a page's world reaches) and says hello with it from another socket.
 */

type Line = { level: string; message: string; fields: Record<string, unknown> };
const lines: Line[] = [];
const log: Log = {
  info: (message, fields = {}) => void lines.push({ level: 'info', message, fields }),
  warn: (message, fields = {}) => void lines.push({ level: 'warn', message, fields }),
  error: (message, fields = {}) => void lines.push({ level: 'error', message, fields }),
};

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let devtoolsPort: number;
let teamBKey: string;
let hubUrl: string;

beforeAll(async () => {
  site = await startFixtureSite();
  devtoolsPort = await freePort();
  tabhive = await startTestTabhive({
    extraChromeArgs: [`--remote-debugging-port=${devtoolsPort}`],
    log,
    browserRelaunchMs: 3_000,
  });
  teamBKey = await addOtherTeam(tabhive);
  hubUrl = `ws://${new URL(tabhive.url).host}${HUB_PATH}`;
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

const poolBrowserIds = () => tabhive.tabhive.hub.browserStatuses().map((status) => status.browserId);

/** Runs `expression` in the extension's worker, over the test's debugging port. */
async function evaluateInWorker<T>(expression: string): Promise<T> {
  const devtools = await connectDevtools(devtoolsPort);
  const target = (await devtools.targets()).find(
    (candidate) =>
      candidate.type === 'service_worker' && candidate.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
  );
  devtools.close();
  if (target === undefined) throw new Error('the extension has no running worker');
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  try {
    type Reply = {
      id?: number;
      result?: { result?: { value?: unknown }; exceptionDetails?: unknown };
      error?: { message: string };
    };
    const reply = new Promise<Reply>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as Reply;
        if (message.id === 1) resolve(message);
      }),
    );
    socket.send(
      JSON.stringify({
        id: 1,
        method: 'Runtime.evaluate',
        params: { expression, awaitPromise: true, returnByValue: true },
      }),
    );
    const answer = await reply;
    if (answer.error !== undefined) throw new Error(answer.error.message);
    if (answer.result?.exceptionDetails !== undefined) {
      throw new Error(`the worker threw: ${JSON.stringify(answer.result.exceptionDetails).slice(0, 500)}`);
    }
    return answer.result?.result?.value as T;
  } finally {
    socket.close();
  }
}

/** The token the extension would present at its next hello: the thief's loot. */
const stealSessionToken = () =>
  evaluateInWorker<string>(
    `chrome.storage.session.get('launchSession').then((items) => items.launchSession.token)`,
  );

/** The launched browser's profile folder, from its command line. */
async function profileDir(): Promise<string> {
  const [pid] = tabhive.tabhive.launcher?.pids() ?? [];
  const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  const dir = args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
  if (dir === undefined) throw new Error('the launched browser has no --user-data-dir');
  return dir;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Team B's browser scrape, with a credential for the site it scrapes (what N1b stole). */
async function teamBScrape() {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${teamBKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: site.url('/'),
      maxAge: 0,
      formats: ['markdown'],
      headers: { Authorization: 'Bearer TEAM-B-UPSTREAM-TOKEN' },
      actions: [{ type: 'wait', milliseconds: 10 }],
    }),
  });
  return { status: response.status, json: (await response.json()) as { data?: { markdown?: string } } };
}

describe('a launched pool browser’s hub credentials', () => {
  it('are nowhere in its profile’s files, nor readable from a content-script world', async () => {
    const token = await stealSessionToken();
    expect(token.length).toBeGreaterThan(20);
    const dir = await profileDir();
    const launchConfig = path.join(dir, 'tabhive-extension', LAUNCH_CONFIG_FILE);
    // The launcher removes the spent launch token within its watchdog's second.
    await waitUntil(
      async () => !('token' in JSON.parse(await readFile(launchConfig, 'utf8'))),
      5_000,
      'the spent launch token to leave launch.json',
    );
    for (const file of await filesUnder(dir)) {
      const content = await readFile(file).catch(() => Buffer.alloc(0));
      expect(content.includes(token), file).toBe(false);
    }

    // The extension's world in a page (what scripting.executeScript creates, and the relay reached).
    const fromPage = await evaluateInWorker<Record<string, string>>(`(async () => {
      const tab = await chrome.tabs.create({ url: ${JSON.stringify(site.url('/'))}, active: false });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const [injection] = await chrome.scripting.executeScript({
        target: { tabId: tab.id },
        func: async () => {
          const read = async (area) => {
            try { return JSON.stringify(await chrome.storage[area].get(null)); }
            catch (error) { return 'denied: ' + String(error && error.message); }
          };
          return { local: await read('local'), session: await read('session') };
        },
      });
      await chrome.tabs.remove(tab.id);
      return injection.result;
    })()`);
    expect(fromPage.local).toMatch(/^denied/);
    expect(fromPage.session).toMatch(/^denied/);
    expect(JSON.stringify(fromPage)).not.toContain(token);
  });

  it('said in a hello from another socket, are refused, and the pool browser keeps its tasks', async () => {
    const [browserId] = poolBrowserIds();
    const token = await stealSessionToken();
    const thief = await connectFakeBrowser(hubUrl);
    thief.hello(token);
    expect((await thief.closed).code).toBe(HubCloseCode.ALREADY_CONNECTED);
    expect(poolBrowserIds()).toEqual([browserId]);

    const { status, json } = await teamBScrape();
    expect(status).toBe(200);
    expect(json.data?.markdown).toContain('Welcome to the hive');
    expect(poolBrowserIds()).toEqual([browserId]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'browser refused',
        fields: expect.objectContaining({ browserId, closeCode: HubCloseCode.ALREADY_CONNECTED }),
      }),
    );
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it('used first by a thief, revoke the browser when it comes back; it is relaunched and the thief gets nothing', async () => {
    const [browserId] = poolBrowserIds();
    const token = await stealSessionToken();
    const devtools = await connectDevtools(devtoolsPort);
    try {
      // The pool browser's worker stops (Chrome stops idle workers): its socket closes.
      const worker = (await devtools.targets()).find(
        (target) =>
          target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
      );
      await devtools.send('Target.closeTarget', { targetId: worker?.id });
      await waitUntil(() => tabhive.tabhive.hub.connectedBrowsers() === 0, 10_000, 'the socket to close');

      // The thief is quicker than the worker's restart.
      const thief = await connectFakeBrowser(hubUrl);
      thief.hello(token);
      expect((await thief.next('welcome')).browserId).toBe(browserId);

      // Any extension event starts the worker again; its hello presents the token the thief spent.
      const { targetId } = await devtools.send<{ targetId: string }>('Target.createTarget', {
        url: site.url('/'),
      });
      expect((await thief.closed).code).toBe(HubCloseCode.REVOKED);
      await devtools.send('Target.closeTarget', { targetId }).catch(() => undefined);
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'error',
          message: 'browser credentials replayed: browser revoked',
          fields: expect.objectContaining({ browserId, spentToken: 'session' }),
        }),
      );
      expect(tabhive.tabhive.browserTokens.check(token)).toEqual({ kind: 'revoked', browserId });

      // The launcher's watchdog relaunches the browser that stays out, with new credentials.
      await waitUntil(
        () => poolBrowserIds().length === 1 && poolBrowserIds()[0] !== browserId,
        60_000,
        'a relaunched browser to connect',
      );
      const { status, json } = await teamBScrape();
      expect(status).toBe(200);
      expect(json.data?.markdown).toContain('Welcome to the hive');
      await expect(thief.next('task', 100)).rejects.toThrow(/socket closed/);
    } finally {
      devtools.close();
    }
  });
});
