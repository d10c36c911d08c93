import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { liveViewUrls } from '../../../server/products/browser-sessions/live-view-urls';
import { startCdpBackedSession } from './cdp-backed-session';
import { OTHER_TEAM_KEY, TEAM_ID, TEAM_KEY, serveLiveView } from './serve-live-view';

const FORM_PAGE = `<!doctype html><html><head><title>Sign in</title>
<style>body { margin: 0; font: 18px sans-serif; } form { position: absolute; left: 120px; top: 90px; }
input { display: block; width: 260px; height: 34px; margin: 12px 0; font-size: 18px; }</style></head>
<body><form id="login"><input id="user" name="user" autocomplete="off"><input id="pass" name="pass" type="password"><button>Sign in</button></form>
<p id="out"></p>
<script>document.getElementById('login').addEventListener('submit', (event) => {
  event.preventDefault();
  document.getElementById('out').textContent = 'Signed in as ' + document.getElementById('user').value +
    ' with ' + document.getElementById('pass').value.length + ' characters';
});</script></body></html>`;

const CHROMIUM_PATH = '/usr/lib/chromium/chromium';

/** A live view socket opened by hand, with the key sent as the page sends it. */
async function viewerSocket(url: string, apiKey: string) {
  const socket = new WebSocket(url.replace(/^http/, 'ws') + '/socket');
  const messages: Array<Record<string, unknown>> = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'auth', apiKey }));
  return { socket, messages, closed, send: (message: unknown) => socket.send(JSON.stringify(message)) };
}

/** Where a point of the tab's page is on the viewer's screen image. */
async function onScreen(viewer: Page, tabWidth: number, point: { x: number; y: number }) {
  const box = await viewer.locator('#view').boundingBox();
  if (box === null) throw new Error('the live view shows no image');
  const zoom = box.width / tabWidth;
  return { x: box.x + point.x * zoom, y: box.y + point.y * zoom };
}

describe('the live view', () => {
  let site: Server;
  let siteUrl: string;
  let tab: Awaited<ReturnType<typeof startCdpBackedSession>>;
  let server: Awaited<ReturnType<typeof serveLiveView>>;
  let urls: ReturnType<typeof liveViewUrls>;
  let viewerBrowser: Browser;

  beforeAll(async () => {
    site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(FORM_PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    tab = await startCdpBackedSession({ teamId: TEAM_ID });
    server = await serveLiveView(tab.directory, () => tab.end());
    urls = liveViewUrls(server.url, tab.session);
    viewerBrowser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
  });

  afterAll(async () => {
    await viewerBrowser?.close();
    await server?.close();
    await tab?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('serves a self-contained page under a nonce CSP, and a 404 for unknown tokens', async () => {
    const response = await fetch(urls.interactiveLiveViewUrl);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect((await fetch(`${server.url}/live/not-a-token`)).status).toBe(404);
  });

  it('lets the team sign in on the page by clicking and typing on the image', async () => {
    const viewer = await (
      await viewerBrowser.newContext({ viewport: { width: 1300, height: 900 } })
    ).newPage();
    const cspErrors: string[] = [];
    viewer.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    await viewer.goto(urls.interactiveLiveViewUrl);
    await viewer.fill('#key', TEAM_KEY);
    await viewer.click('#key-form button');
    await viewer.waitForSelector('body[data-ready="true"][data-frames]');

    await viewer.fill('#url', `${siteUrl}/sign-in`);
    await viewer.press('#url', 'Enter');
    await expect.poll(() => tab.evaluate<string>('document.title')).toBe('Sign in');
    await expect.poll(() => viewer.inputValue('#url')).toContain('/sign-in');

    const layout = await tab.evaluate<{ width: number; user: DOMRect; pass: DOMRect }>(
      `({ width: innerWidth, user: document.getElementById('user').getBoundingClientRect().toJSON(),
          pass: document.getElementById('pass').getBoundingClientRect().toJSON() })`,
    );
    // The frame shown may lag behind the navigation: wait until the image shows the form's size.
    await expect
      .poll(async () => (await viewer.locator('#view').boundingBox())?.width ?? 0)
      .toBeGreaterThan(0);
    const user = await onScreen(viewer, layout.width, {
      x: layout.user.x + layout.user.width / 2,
      y: layout.user.y + layout.user.height / 2,
    });
    await viewer.mouse.click(user.x, user.y);
    await expect.poll(() => tab.evaluate<string>('document.activeElement.id')).toBe('user');
    await viewer.keyboard.type('alice');
    const pass = await onScreen(viewer, layout.width, {
      x: layout.pass.x + layout.pass.width / 2,
      y: layout.pass.y + layout.pass.height / 2,
    });
    await viewer.mouse.click(pass.x, pass.y);
    await expect.poll(() => tab.evaluate<string>('document.activeElement.id')).toBe('pass');
    await viewer.keyboard.type('s3cret!');
    await viewer.keyboard.press('Enter');
    await expect
      .poll(() => tab.evaluate<string>('document.getElementById("out").textContent'))
      .toBe('Signed in as alice with 7 characters');
    expect(cspErrors).toEqual([]);
    expect(tab.touches()).toBeGreaterThan(0);
    await viewer.close();
  });

  it('keeps the key in the tab and asks again for a wrong one', async () => {
    const viewer = await (await viewerBrowser.newContext()).newPage();
    await viewer.goto(urls.liveViewUrl);
    await viewer.fill('#key', OTHER_TEAM_KEY);
    await viewer.click('#key-form button');
    await expect
      .poll(() => viewer.textContent('#key-error'))
      .toBe("This API key's team cannot open this session.");
    await viewer.fill('#key', TEAM_KEY);
    await viewer.click('#key-form button');
    await viewer.waitForSelector('body[data-ready="true"]');
    await viewer.reload();
    await viewer.waitForSelector('body[data-ready="true"]');
    expect(await viewer.isHidden('#key-form')).toBe(true);
    // The watching page has no address bar.
    expect(await viewer.locator('#url').count()).toBe(0);
    await viewer.close();
  });

  it("refuses another team's key, an unknown key, and input on the watching socket", async () => {
    const other = await viewerSocket(urls.liveViewUrl, OTHER_TEAM_KEY);
    expect(await other.closed).toBe(4403);
    const nobody = await viewerSocket(urls.interactiveLiveViewUrl, 'fc-nobody');
    expect(await nobody.closed).toBe(4401);

    const watcher = await viewerSocket(urls.liveViewUrl, TEAM_KEY);
    await expect.poll(() => watcher.messages.some((message) => message['type'] === 'ready')).toBe(true);
    const inputsBefore = tab.commands.filter((command) => command.kind === 'input').length;
    watcher.send({ type: 'input', input: { kind: 'text', text: 'not from a watcher' } });
    watcher.send({ type: 'navigate', url: 'https://example.com/' });
    await expect.poll(() => watcher.messages.filter((message) => message['type'] === 'error').length).toBe(2);
    expect(tab.commands.filter((command) => command.kind === 'input')).toHaveLength(inputsBefore);
    expect(
      tab.commands.some((command) => command.kind === 'navigate' && command.url === 'https://example.com/'),
    ).toBe(false);
    watcher.socket.close();
  });

  it("ends the session with the page's End button, and is gone then", async () => {
    const watcher = await viewerSocket(urls.liveViewUrl, TEAM_KEY);
    await expect.poll(() => watcher.messages.some((message) => message['type'] === 'ready')).toBe(true);
    const viewer = await (await viewerBrowser.newContext()).newPage();
    await viewer.goto(urls.interactiveLiveViewUrl);
    await viewer.fill('#key', TEAM_KEY);
    await viewer.click('#key-form button');
    await viewer.waitForSelector('body[data-ready="true"]');
    viewer.once('dialog', (dialog) => void dialog.accept());
    await viewer.click('#end');
    expect(await watcher.closed).toBe(4410);
    await expect.poll(() => viewer.textContent('#status')).toBe('The session has ended.');
    await viewer.close();
    expect((await fetch(urls.interactiveLiveViewUrl)).status).toBe(404);
    const refused = new WebSocket(urls.liveViewUrl.replace(/^http/, 'ws') + '/socket');
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)),
    );
    expect(status).toBe(404);
  });
});
