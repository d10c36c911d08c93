import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The proof: a team member logs in once inside a server-launched browser profile through
 * the interactive live view — a separate, ordinary Chromium showing the session's tab, clicked
 * and typed into as a person would — and later scrapes with that profile are logged in.
 */

const CHROMIUM_PATH = '/usr/lib/chromium/chromium';

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;
let viewerBrowser: Browser;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => resolve(body));
  });

/** A shop whose account page shows who is signed in, by a session cookie its login form sets. */
function startShop() {
  const signedIn = new Map<string, string>();
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://shop');
    const page = (title: string, body: string, headers: Record<string, string> = {}) =>
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers })
        .end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
    if (url.pathname === '/login' && request.method === 'POST') {
      void readBody(request).then((body) => {
        const form = new URLSearchParams(body);
        const user = form.get('user') ?? '';
        if (user === '' || form.get('password') !== 'hunter22') {
          page('Shop login', '<p id="error">Wrong user name or password</p>');
          return;
        }
        const token = `t${signedIn.size + 1}-${Date.now()}`;
        signedIn.set(token, user);
        response
          .writeHead(303, {
            location: '/account',
            'set-cookie': `shop_session=${token}; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax`,
          })
          .end();
      });
      return;
    }
    switch (url.pathname) {
      case '/login':
        page(
          'Shop login',
          `<style>body { margin: 0; font: 18px sans-serif; } form { margin: 80px 0 0 100px; }
            input { display: block; width: 280px; height: 36px; margin: 14px 0; font-size: 18px; }</style>
          <h1>Sign in to the shop</h1>
          <form method="post" action="/login">
            <input id="user" name="user" autocomplete="off" placeholder="User name">
            <input id="password" name="password" type="password" placeholder="Password">
            <button type="submit">Sign in</button>
          </form>`,
        );
        return;
      case '/account': {
        const token = /(?:^|;\s*)shop_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
        const user = token === undefined ? undefined : signedIn.get(token);
        page('Account', user === undefined ? '<h1>Not signed in</h1>' : `<h1>Signed in as ${user}</h1>`);
        return;
      }
      default:
        page('Shop', '<h1>Shop</h1>');
    }
  });
}

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

/** Runs JavaScript in the session's tab and gives its value back (the execute route's `result`). */
async function inTab<T>(id: string, expression: string): Promise<T> {
  const { body } = await call('POST', `/v2/browser/${id}/execute`, {
    code: `JSON.stringify(${expression})`,
    language: 'page',
  });
  if (body.success !== true || typeof body.result !== 'string') throw new Error(JSON.stringify(body));
  return JSON.parse(body.result) as T;
}

/** Where a point of the tab's page is on the live view's image. */
async function onScreen(viewer: Page, tabWidth: number, point: { x: number; y: number }) {
  const box = await viewer.locator('#view').boundingBox();
  if (box === null) throw new Error('the live view shows no image');
  const zoom = box.width / tabWidth;
  return { x: box.x + point.x * zoom, y: box.y + point.y * zoom };
}

/** A live view socket opened by hand; the API key goes first, as the page sends it. */
async function viewerSocket(liveViewUrl: string, apiKey: string) {
  const socket = new WebSocket(`${liveViewUrl.replace(/^http/, 'ws')}/socket`);
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

beforeAll(async () => {
  site = startShop();
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
  otherTeamKey = await addOtherTeam(tabhive);
  // The person's own browser: an ordinary Chromium without the extension, fresh profile.
  viewerBrowser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
});

afterAll(async () => {
  await viewerBrowser?.close();
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('logging in once through the interactive live view', () => {
  let session: Body;

  it('creates a session on the shop profile with its live view addresses', async () => {
    const created = await call('POST', '/v2/browser', {
      ttl: 300,
      profile: { name: 'shop', saveChanges: true },
    });
    expect(created.status).toBe(200);
    session = created.body;
    expect(session.interactiveLiveViewUrl).toMatch(/\/live\/[A-Za-z0-9_-]+$/);
    expect(session.liveViewUrl).not.toBe(session.interactiveLiveViewUrl);
  });

  it('keeps the live view and the session from another team', async () => {
    const other = await viewerSocket(session.interactiveLiveViewUrl, otherTeamKey);
    expect(await other.closed).toBe(4403);
    expect(other.messages).toEqual([]);
    const execute = await call('POST', `/v2/browser/${session.id}/execute`, { code: '1' }, otherTeamKey);
    expect(execute.status).toBe(404);
    const deleted = await call('DELETE', `/v2/browser/${session.id}`, undefined, otherTeamKey);
    expect(deleted.status).toBe(404);
  });

  it('lets a person sign in by clicking and typing on the live view', async () => {
    const viewer = await (
      await viewerBrowser.newContext({ viewport: { width: 1400, height: 1000 } })
    ).newPage();
    await viewer.goto(session.interactiveLiveViewUrl);
    // The page asks for the team's key before it shows anything.
    await viewer.fill('#key', tabhive.apiKey);
    await viewer.click('#key-form button');
    await viewer.waitForSelector('body[data-ready="true"][data-frames]');

    // The address bar sends the session's tab to the shop's login page.
    await viewer.fill('#url', siteUrl('/login'));
    await viewer.press('#url', 'Enter');
    await expect
      .poll(() => inTab<string>(session.id, 'document.title'), { timeout: 20_000 })
      .toBe('Shop login');
    await expect.poll(() => viewer.inputValue('#url')).toBe(siteUrl('/login'));

    // Where the fields are in the tab's page, found as the caller would: through execute.
    const layout = await inTab<{ width: number; user: DOMRect; password: DOMRect }>(
      session.id,
      `({ width: innerWidth, user: document.getElementById('user').getBoundingClientRect().toJSON(),
          password: document.getElementById('password').getBoundingClientRect().toJSON() })`,
    );
    const centre = (rect: DOMRect) => ({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });

    const user = await onScreen(viewer, layout.width, centre(layout.user));
    await viewer.mouse.click(user.x, user.y);
    await expect.poll(() => inTab<string>(session.id, 'document.activeElement.id')).toBe('user');
    await viewer.keyboard.type('alice');
    const password = await onScreen(viewer, layout.width, centre(layout.password));
    await viewer.mouse.click(password.x, password.y);
    await expect.poll(() => inTab<string>(session.id, 'document.activeElement.id')).toBe('password');
    await viewer.keyboard.type('hunter22');
    expect(await inTab<string>(session.id, 'document.getElementById("user").value')).toBe('alice');
    await viewer.keyboard.press('Enter');

    await expect
      .poll(() => inTab<string>(session.id, 'document.querySelector("h1")?.textContent'), { timeout: 20_000 })
      .toBe('Signed in as alice');
    await viewer.close();
  });

  it('refuses input on the watching live view', async () => {
    const watcher = await viewerSocket(session.liveViewUrl, tabhive.apiKey);
    await expect.poll(() => watcher.messages.some((message) => message['type'] === 'ready')).toBe(true);
    watcher.send({ type: 'input', input: { kind: 'text', text: 'typed by a watcher' } });
    watcher.send({ type: 'navigate', url: siteUrl('/login') });
    await expect.poll(() => watcher.messages.filter((message) => message['type'] === 'error').length).toBe(2);
    expect(await inTab<string>(session.id, 'location.pathname')).toBe('/account');
    watcher.socket.close();
  });

  it('saves the login into the profile when the session ends, and the live view goes with it', async () => {
    const watcher = await viewerSocket(session.liveViewUrl, tabhive.apiKey);
    await expect.poll(() => watcher.messages.some((message) => message['type'] === 'ready')).toBe(true);
    const deleted = await call('DELETE', `/v2/browser/${session.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.success).toBe(true);
    expect(await watcher.closed).toBe(4410);
    expect((await fetch(session.interactiveLiveViewUrl)).status).toBe(404);
    const refused = new WebSocket(`${session.liveViewUrl.replace(/^http/, 'ws')}/socket`);
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)),
    );
    expect(status).toBe(404);
  });

  it('scrapes the account page logged in with the profile', async () => {
    const scraped = await call('POST', '/v2/scrape', {
      url: siteUrl('/account'),
      formats: ['markdown'],
      profile: { name: 'shop', saveChanges: false },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.body.data.markdown).toContain('Signed in as alice');

    const anonymous = await call('POST', '/v2/scrape', {
      url: siteUrl('/account'),
      formats: ['markdown'],
      maxAge: 0,
    });
    expect(anonymous.body.data.markdown).toContain('Not signed in');
  });
});
