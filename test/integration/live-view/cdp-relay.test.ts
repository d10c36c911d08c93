import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { liveViewUrls } from '../../../server/products/browser-sessions/live-view-urls';
import { startCdpBackedSession } from './cdp-backed-session';
import { OTHER_TEAM_KEY, TEAM_ID, TEAM_KEY, serveLiveView } from './serve-live-view';

const COUNTER_PAGE = `<!doctype html><html><head><title>Counter</title></head><body>
<h1>Counter</h1><button id="more" style="font-size:30px">More</button><p id="count">0</p>
<script>document.getElementById('more').addEventListener('click', () => {
  const count = document.getElementById('count'); count.textContent = String(Number(count.textContent) + 1);
});</script></body></html>`;

/** A raw CDP client of the relay, for what Playwright would never send. */
async function rawClient(url: string, key: string) {
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${key}` } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const messages: Array<Record<string, unknown>> = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
  let nextId = 1;
  return {
    messages,
    async send(method: string, params: Record<string, unknown> = {}, sessionId?: string) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
      await expect.poll(() => messages.some((message) => message['id'] === id)).toBe(true);
      return messages.find((message) => message['id'] === id) as {
        result?: Record<string, unknown>;
        error?: { code: number; message: string };
      };
    },
    closed: new Promise<number>((resolve) => socket.once('close', resolve)),
    close: () => socket.close(),
  };
}

/** How a refused handshake answers: its HTTP status. */
function handshakeStatus(url: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('open', () => reject(new Error('the handshake was accepted')));
    socket.once('error', () => undefined);
  });
}

describe('the cdpUrl relay', () => {
  let site: Server;
  let siteUrl: string;
  let tab: Awaited<ReturnType<typeof startCdpBackedSession>>;
  let server: Awaited<ReturnType<typeof serveLiveView>>;
  let cdpUrl: string;

  beforeAll(async () => {
    site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(COUNTER_PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    tab = await startCdpBackedSession({ teamId: TEAM_ID });
    server = await serveLiveView(tab.directory);
    cdpUrl = liveViewUrls(server.url, tab.session).cdpUrl;
  });

  afterAll(async () => {
    await server?.close();
    await tab?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it("lets Playwright's connectOverCDP drive the session's one page", async () => {
    const browser: Browser = await chromium.connectOverCDP(cdpUrl, {
      headers: { Authorization: `Bearer ${TEAM_KEY}` },
    });
    try {
      expect(browser.contexts()).toHaveLength(1);
      const [page] = browser.contexts()[0]?.pages() ?? [];
      if (page === undefined) throw new Error('no page');
      await page.goto(`${siteUrl}/counter`);
      expect(await page.title()).toBe('Counter');
      expect(await page.evaluate(() => 6 * 7)).toBe(42);
      await page.click('#more');
      await page.click('#more');
      expect(await page.textContent('#count')).toBe('2');
      expect(await page.content()).toContain('<h1>Counter</h1>');
      const screenshot = await page.screenshot();
      expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
      // It is the session's own tab that moved.
      expect(await tab.evaluate<string>('document.getElementById("count").textContent')).toBe('2');
      // Beyond the one tab: no new pages, no cookie jar.
      await expect(browser.contexts()[0]?.newPage()).rejects.toThrow(/Target.createTarget is not available/);
      await expect(browser.contexts()[0]?.cookies()).rejects.toThrow(/Storage.getCookies is not available/);
    } finally {
      await browser.close();
    }
  });

  it('lets a client connect again after another one left', async () => {
    const browser = await chromium.connectOverCDP(cdpUrl, {
      headers: { Authorization: `Bearer ${TEAM_KEY}` },
    });
    try {
      const [page] = browser.contexts()[0]?.pages() ?? [];
      expect(await page?.evaluate(() => document.title)).toBe('Counter');
    } finally {
      await browser.close();
    }
  });

  it('refuses what reaches beyond the tab with a CDP error and keeps serving', async () => {
    const client = await rawClient(cdpUrl, TEAM_KEY);
    try {
      expect((await client.send('Browser.close')).error?.message).toMatch(/DELETE \/v2\/browser\//);
      expect((await client.send('Target.createTarget', { url: 'about:blank' })).error?.code).toBe(-32000);
      expect((await client.send('Target.createBrowserContext')).error?.code).toBe(-32000);
      expect((await client.send('SystemInfo.getInfo')).error?.code).toBe(-32000);
      const attached = await client.send('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
      });
      expect(attached.result).toEqual({});
      const event = client.messages.find((message) => message['method'] === 'Target.attachedToTarget') as {
        params: { sessionId: string; targetInfo: { type: string; url: string } };
      };
      expect(event.params.targetInfo.type).toBe('page');
      const { sessionId } = event.params;
      for (const [method, params] of [
        ['DOM.setFileInputFiles', { files: ['/etc/passwd'], nodeId: 1 }],
        ['Network.getAllCookies', {}],
        ['Storage.getCookies', {}],
        ['Page.navigate', { url: 'file:///etc/passwd' }],
        ['Fetch.enable', {}],
        ['Target.createTarget', { url: 'about:blank' }],
      ] as const) {
        const answer = await client.send(method, params, sessionId);
        expect(answer.error?.code, method).toBe(-32000);
      }
      expect((await client.send('Runtime.evaluate', { expression: '1 + 1' }, sessionId)).result).toEqual({
        result: { type: 'number', value: 2, description: '2' },
      });
      expect(
        (await client.send('Runtime.evaluate', { expression: '1' }, 'NOT-A-SESSION')).error?.message,
      ).toBe('No session with given id');
    } finally {
      client.close();
    }
  });

  it("refuses another team's key, an unknown key and no key at the handshake", async () => {
    expect(await handshakeStatus(cdpUrl, { Authorization: `Bearer ${OTHER_TEAM_KEY}` })).toBe(404);
    expect(await handshakeStatus(cdpUrl, { Authorization: 'Bearer fc-nobody' })).toBe(401);
    expect(await handshakeStatus(cdpUrl, {})).toBe(401);
    expect(
      await handshakeStatus(cdpUrl.replace(tab.session.id, 'no-such-session'), {
        Authorization: `Bearer ${TEAM_KEY}`,
      }),
    ).toBe(404);
  });

  it('detaches the page and closes when the session ends', async () => {
    const client = await rawClient(cdpUrl, TEAM_KEY);
    await client.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: true,
    });
    tab.end();
    expect(await client.closed).toBe(1000);
    expect(client.messages.some((message) => message['method'] === 'Target.detachedFromTarget')).toBe(true);
    expect(await handshakeStatus(cdpUrl, { Authorization: `Bearer ${TEAM_KEY}` })).toBe(404);
  });
});
