import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { SessionCommand, SessionEvent } from '../../../shared/protocol/messages';
import type {
  LiveSession,
  LiveSessionDirectory,
} from '../../../server/products/browser-sessions/live-session';
import { TaskError } from '../../../server/browsers/hub/task-error';
import type { CdpSession } from '../../../extension/debugger/cdp-session';
import { createLiveCommandRunner } from '../../../extension/sessions/live-command-runner';
import { PageTaskError } from '../../../extension/task-kit/page-task-error';

const CHROMIUM_PATH = '/usr/lib/chromium/chromium';

/** A raw DevTools connection to one page target (what chrome.debugger is to the extension). */
async function openPageConnection(webSocketUrl: string) {
  const socket = new WebSocket(webSocketUrl, { maxPayload: 256 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Set<(method: string, params: Record<string, unknown>) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: unknown;
      error?: { message: string };
    };
    if (message.id === undefined) {
      for (const listener of listeners) listener(message.method ?? '', message.params ?? {});
      return;
    }
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) => {
    const id = nextId++;
    socket.send(JSON.stringify({ id, method, params }));
    return new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }));
  };
  const cdp: CdpSession = {
    send: async <T>(method: string, params?: Record<string, unknown>) => (await send(method, params)) as T,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    detached: new Promise<string>(() => {}),
    async detach() {
      socket.close();
    },
  };
  return { send, cdp, close: () => socket.close() };
}

/**
 * A LiveSession whose tab is a page of a headless Chromium the test launched, reached over a raw
 * DevTools socket instead of the extension: the live commands run through the extension's own
 * runner (live-command-runner.ts, with its relay allowlist) and the page commands the live view
 * uses (navigate, evaluate) run here. It lets the server side of the live view and the cdpUrl
 * relay be tested against a real page without the hub and the extension.
 */
export async function startCdpBackedSession({
  teamId,
  donated = false,
}: {
  teamId: string;
  donated?: boolean;
}) {
  const profileDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-live-view-'));
  const chromium = spawn(
    CHROMIUM_PATH,
    [
      '--headless',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--remote-debugging-port=0',
      '--window-size=1000,700',
      `--user-data-dir=${profileDir}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const browserUrl = await new Promise<string>((resolve, reject) => {
    let text = '';
    chromium.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    chromium.once('exit', (code) => reject(new Error(`chromium exited with ${code}: ${text}`)));
  });
  const port = new URL(browserUrl).port;
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    type: string;
    webSocketDebuggerUrl: string;
  }>;
  const pageTarget = targets.find((target) => target.type === 'page');
  if (pageTarget === undefined) throw new Error('no page target');
  const page = await openPageConnection(pageTarget.webSocketDebuggerUrl);
  await page.send('Page.enable');

  const listeners = new Set<(event: SessionEvent) => void>();
  const emit = (event: SessionEvent) => {
    for (const listener of listeners) listener(event);
  };
  page.cdp.onEvent((method, params) => {
    const frame = params['frame'] as { url: string; parentId?: string } | undefined;
    if (method === 'Page.frameNavigated' && frame !== undefined && frame.parentId === undefined) {
      emit({ kind: 'navigated', url: frame.url });
    }
  });
  const live = createLiveCommandRunner({
    tabId: 1,
    cdp: page.cdp,
    emit,
    donated,
    // The test's sites are on loopback.
    networkPolicy: { allowPrivateNetworks: true, allowedPrivateHosts: [] },
    direct: page.send,
    donorTerms: async () => ({ enabled: true, allowedDomains: [], maxTabs: 1, allowJavascript: true }),
  });
  let endSession: () => void = () => {};
  const ended = new Promise<void>((resolve) => (endSession = resolve));
  let isEnded = false;
  void ended.then(() => (isEnded = true));
  const commands: SessionCommand[] = [];
  let touches = 0;

  const run = async (command: SessionCommand): Promise<unknown> => {
    switch (command.kind) {
      case 'navigate': {
        const loaded = new Promise<void>((resolve) => {
          const stop = page.cdp.onEvent((method) => {
            if (method === 'Page.loadEventFired') {
              stop();
              resolve();
            }
          });
        });
        await page.send('Page.navigate', { url: command.url });
        await loaded;
        const evaluated = (await page.send('Runtime.evaluate', {
          expression: 'location.href',
          returnByValue: true,
        })) as { result: { value: string } };
        return { url: evaluated.result.value, statusCode: 200 };
      }
      case 'evaluate': {
        const evaluated = (await page.send('Runtime.evaluate', {
          expression: command.code,
          returnByValue: true,
          awaitPromise: true,
        })) as { result: { type: string; value: unknown } };
        return { type: evaluated.result.type, value: evaluated.result.value };
      }
      case 'actions':
      case 'snapshot':
        throw new PageTaskError('BROWSER_ERROR', `${command.kind} is not served by this test session`);
      default:
        return live.run(command);
    }
  };

  const session: LiveSession = {
    id: randomBytes(8).toString('hex'),
    teamId,
    browserClass: 'basic',
    donated,
    liveViewToken: randomBytes(32).toString('base64url'),
    interactiveToken: randomBytes(32).toString('base64url'),
    expiresAt: new Date(Date.now() + 600_000),
    async command(command) {
      if (isEnded) throw new TaskError('TASK_CANCELLED', 'The browser session has ended');
      commands.push(command);
      try {
        return (await run(command)) as never;
      } catch (err) {
        if (err instanceof PageTaskError) throw new TaskError(err.code, err.message);
        throw new TaskError('BROWSER_ERROR', err instanceof Error ? err.message : String(err));
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ended,
    touch: () => {
      touches += 1;
    },
  };

  const directory: LiveSessionDirectory = {
    get: (id, team) => (!isEnded && id === session.id && team === session.teamId ? session : undefined),
    byViewToken(token) {
      if (isEnded) return undefined;
      if (token === session.liveViewToken) return { session, interactive: false };
      if (token === session.interactiveToken) return { session, interactive: true };
      return undefined;
    },
  };

  return {
    session,
    directory,
    /** Every command the server sent, in order. */
    commands,
    touches: () => touches,
    /** Evaluates in the page directly, as a test's look behind the scenes. */
    async evaluate<T>(expression: string): Promise<T> {
      const evaluated = (await page.send('Runtime.evaluate', {
        expression,
        returnByValue: true,
        awaitPromise: true,
      })) as { result: { value: T } };
      return evaluated.result.value;
    },
    end() {
      endSession();
    },
    async close() {
      endSession();
      await live.stop().catch(() => undefined);
      page.close();
      chromium.kill('SIGKILL');
      await new Promise((resolve) =>
        chromium.exitCode === null ? chromium.once('exit', resolve) : resolve(0),
      );
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
