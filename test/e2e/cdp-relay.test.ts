import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * A browser session's cdpUrl end to end: Playwright's connectOverCDP through the server's relay
 * and the extension's chrome.debugger drives the session's one tab in a launched Chromium.
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

const COUNTER_PAGE = `<!doctype html><html><head><title>Counter</title></head><body>
<h1>Counter</h1><button id="more">More</button><p id="count">0</p><input id="name">
<script>document.getElementById('more').addEventListener('click', () => {
  const count = document.getElementById('count'); count.textContent = String(Number(count.textContent) + 1);
});</script></body></html>`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Body = any;

async function call(method: string, path: string, body?: unknown, apiKey = tabhive.apiKey) {
  const response = await fetch(`${tabhive.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

/** How the relay answers a handshake it refuses: the HTTP status. */
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

/** One raw command over the relay, for what Playwright would not send. */
async function rawCommand(url: string, method: string, params: Record<string, unknown> = {}) {
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${tabhive.apiKey}` } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const answer = new Promise<Body>((resolve) =>
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Body;
      if (message.id === 1) resolve(message);
    }),
  );
  socket.send(JSON.stringify({ id: 1, method, params }));
  const message = await answer;
  socket.close();
  return message;
}

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(COUNTER_PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
  otherTeamKey = await addOtherTeam(tabhive);
});

afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe("a browser session's cdpUrl", () => {
  let session: Body;

  it('drives the session tab with Playwright connectOverCDP', async () => {
    session = (await call('POST', '/v2/browser', { ttl: 300 })).body;
    expect(session.cdpUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v2\/browser\/[^/]+\/cdp$/);
    const browser = await chromium.connectOverCDP(session.cdpUrl, {
      headers: { Authorization: `Bearer ${tabhive.apiKey}` },
    });
    try {
      const [context] = browser.contexts();
      const [page] = context?.pages() ?? [];
      if (context === undefined || page === undefined) throw new Error('no page through the relay');
      expect(context.pages()).toHaveLength(1);
      const response = await page.goto(siteUrl('/counter'));
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('Counter');
      expect(await page.evaluate(() => [location.pathname, 6 * 7])).toEqual(['/counter', 42]);
      await page.click('#more');
      await page.click('#more');
      await page.fill('#name', 'Ada');
      expect(await page.textContent('#count')).toBe('2');
      expect(await page.inputValue('#name')).toBe('Ada');
      expect(await page.content()).toContain('<h1>Counter</h1>');
      const screenshot = await page.screenshot();
      expect(screenshot.subarray(1, 4).toString()).toBe('PNG');

      // It is the session's own tab: the API sees what Playwright did.
      const read = await call('POST', `/v2/browser/${session.id}/execute`, {
        code: 'document.getElementById("count").textContent',
        language: 'page',
      });
      expect(read.body.result).toBe('2');

      // Nothing beyond that tab.
      await expect(context.newPage()).rejects.toThrow(/Target.createTarget is not available/);
      await expect(context.cookies()).rejects.toThrow(/not available/);
      expect(await page.evaluate(() => document.title)).toBe('Counter');
    } finally {
      await browser.close();
    }
  });

  it('refuses browser-wide commands with a CDP error, and keeps the session running', async () => {
    const closed = await rawCommand(session.cdpUrl, 'Browser.close');
    expect(closed.error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/DELETE \/v2\/browser\//),
    });
    const created = await rawCommand(session.cdpUrl, 'Target.createTarget', { url: 'about:blank' });
    expect(created.error.code).toBe(-32000);
    const listed = await call('GET', '/v2/browser?status=active');
    expect(listed.body.sessions.map((entry: Body) => entry.id)).toContain(session.id);
  });

  it("refuses another team's key and no key at the handshake", async () => {
    expect(await handshakeStatus(session.cdpUrl, { Authorization: `Bearer ${otherTeamKey}` })).toBe(404);
    expect(await handshakeStatus(session.cdpUrl, {})).toBe(401);
  });

  it('disconnects its clients when the session ends', async () => {
    const browser = await chromium.connectOverCDP(session.cdpUrl, {
      headers: { Authorization: `Bearer ${tabhive.apiKey}` },
    });
    const disconnected = new Promise<void>((resolve) => browser.once('disconnected', () => resolve()));
    expect((await call('DELETE', `/v2/browser/${session.id}`)).status).toBe(200);
    await disconnected;
    expect(await handshakeStatus(session.cdpUrl, { Authorization: `Bearer ${tabhive.apiKey}` })).toBe(404);
  });
});
