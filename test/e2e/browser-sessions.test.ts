import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDITS_PER_SESSION_MINUTE } from '../../server/products/browser-sessions/session-credits';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * Browser sessions (`/v2/browser`) end to end: a real Chromium with the built extension holds a
 * tab for each session, runs the caller's JavaScript and actions in it, and gives it back when the
 * session is deleted, goes idle or its profile is saved.
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamBKey: string;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

function startSite() {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const page = (title: string, body: string, headers: Record<string, string> = {}) =>
      response
        .writeHead(200, { 'content-type': 'text/html', ...headers })
        .end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
    switch (url.pathname) {
      case '/form':
        page(
          'Form',
          `<h1>Form page</h1><input id="name"><button id="go">Go</button><p id="out"></p>` +
            `<script>document.getElementById('go').onclick = () => {` +
            `document.getElementById('out').textContent = 'Hello ' + document.getElementById('name').value; };</script>`,
        );
        return;
      case '/login':
        page('Login', '<h1>Logged in</h1>', {
          'set-cookie': 'session=SESSION-COOKIE; Path=/; Max-Age=3600; HttpOnly',
        });
        return;
      case '/whoami':
        page('Who', `<h1>Who am I</h1><p id="sent">COOKIE is "${request.headers.cookie ?? ''}"</p>`);
        return;
      default:
        page('Home', '<h1>Home</h1>');
    }
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Body = any;

async function call(
  method: string,
  path: string,
  body?: unknown,
  apiKey = tabhive.apiKey,
): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${tabhive.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** Code here is JavaScript run inside the page (language "page") unless the body names a language. */
const execute = (id: string, body: Record<string, unknown>, apiKey?: string) =>
  call(
    'POST',
    `/v2/browser/${id}/execute`,
    body['code'] === undefined || 'language' in body ? body : { language: 'page', ...body },
    apiKey,
  );

beforeAll(async () => {
  site = startSite();
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
  teamBKey = await addOtherTeam(tabhive);
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('a browser session', () => {
  let id: string;

  it('starts on a blank tab and answers with its addresses', async () => {
    const created = await call('POST', '/v2/browser', { ttl: 120 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, id: expect.any(String) });
    id = created.body.id;
    expect(created.body.cdpUrl).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/v2/browser/${id}/cdp$`));
    expect(created.body.liveViewUrl).toMatch(/\/live\/[A-Za-z0-9_-]{43}$/);
    expect(created.body.interactiveLiveViewUrl).not.toBe(created.body.liveViewUrl);
    expect(Date.parse(created.body.expiresAt) - Date.now()).toBeGreaterThan(100_000);
    expect(tabhive.tabhive.liveSessions.get(id, 'default')?.id).toBe(id);
  });

  it('runs JavaScript that navigates, reads and changes the page', async () => {
    const navigated = await execute(id, {
      code: `location.href = ${JSON.stringify(siteUrl('/form'))}`,
      language: 'page',
    });
    expect(navigated.body).toMatchObject({ success: true, exitCode: 0, killed: false });

    const read = await execute(id, {
      code: `console.log('title', document.title); document.querySelector('h1').textContent`,
      language: 'page',
    });
    expect(read.body).toMatchObject({
      success: true,
      result: 'Form page',
      stdout: 'title Form\n',
      exitCode: 0,
    });
    expect(read.body.liveViewUrl).toMatch(/\/live\//);

    // A function body with await and return; the change stays in the page for the next call.
    const changed = await execute(id, {
      code: `await new Promise((r) => setTimeout(r, 10)); document.querySelector('h1').textContent = 'Changed'; return { n: 42 };`,
    });
    expect(changed.body).toMatchObject({ result: '{"n":42}', exitCode: 0 });
    const after = await execute(id, { code: 'document.querySelector("h1").textContent' });
    expect(after.body.result).toBe('Changed');
  });

  it('runs Firecrawl actions in the same tab', async () => {
    const acted = await execute(id, {
      actions: [
        { type: 'click', selector: '#name' },
        { type: 'write', text: 'Ada' },
        { type: 'click', selector: '#go' },
        { type: 'executeJavascript', script: 'document.getElementById("out").textContent' },
      ],
    });
    expect(acted.status).toBe(200);
    expect(JSON.parse(acted.body.result).javascriptReturns).toEqual([{ type: 'string', value: 'Hello Ada' }]);
    const read = await execute(id, { code: 'document.getElementById("out").textContent' });
    expect(read.body.result).toBe('Hello Ada');
  });

  it('reports errors and timeouts of the code as output', async () => {
    const thrown = await execute(id, { code: 'throw new Error("boom")' });
    expect(thrown.status).toBe(200);
    expect(thrown.body).toMatchObject({ exitCode: 1, killed: false });
    expect(thrown.body.error).toContain('boom');
    expect(thrown.body.stderr).toContain('boom');

    const slow = await execute(id, {
      code: 'await new Promise((r) => setTimeout(r, 10000)); return 1',
      timeout: 1,
    });
    expect(slow.body).toMatchObject({ killed: true, exitCode: 124 });
    expect(slow.body.error).toMatch(/timed out/i);
    // The session still works afterwards.
    expect((await execute(id, { code: '1 + 1' })).body.result).toBe('2');
  });

  it('refuses python and bash with a clear 400', async () => {
    for (const language of ['python', 'bash']) {
      const refused = await execute(id, { code: 'print(1)', language });
      expect(refused.status).toBe(400);
      expect(refused.body.success).toBe(false);
      expect(refused.body.error).toContain('is not available on this server');
      expect(refused.body.error).toContain('"node"');
    }
  });

  it("is another team's business only", async () => {
    expect((await execute(id, { code: '1' }, teamBKey)).status).toBe(404);
    expect((await call('DELETE', `/v2/browser/${id}`, undefined, teamBKey)).status).toBe(404);
    const listed = await call('GET', '/v2/browser', undefined, teamBKey);
    expect(listed.body.sessions.map((session: { id: string }) => session.id)).not.toContain(id);
  });

  it('is listed while active and after it is deleted, with its duration and credits', async () => {
    const active = await call('GET', '/v2/browser?status=active');
    expect(active.body.sessions).toContainEqual(
      expect.objectContaining({ id, status: 'active', streamWebView: true, createdAt: expect.any(String) }),
    );
    const deleted = await call('DELETE', `/v2/browser/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      success: true,
      status: 'destroyed',
      creditsBilled: CREDITS_PER_SESSION_MINUTE,
    });
    expect(deleted.body.sessionDurationMs).toBeGreaterThan(0);
    const destroyed = await call('GET', '/v2/browser?status=destroyed');
    expect(destroyed.body.sessions).toContainEqual(expect.objectContaining({ id, status: 'destroyed' }));
    expect((await call('GET', '/v2/browser?status=active')).body.sessions).toEqual([]);
    expect((await execute(id, { code: '1' })).status).toBe(404);
    // Booked once, on the team's ledger, under the session's own key.
    const before = (await tabhive.tabhive.stores.teams.get('default'))?.creditsUsed ?? 0;
    await call('DELETE', `/v2/browser/${id}`);
    expect((await tabhive.tabhive.stores.teams.get('default'))?.creditsUsed ?? 0).toBe(before);
    expect(before).toBeGreaterThanOrEqual(CREDITS_PER_SESSION_MINUTE);
  });
});

describe('session lifetime', () => {
  it('ends a session that stays idle for its activityTtl', async () => {
    const created = await call('POST', '/v2/browser', { ttl: 120, activityTtl: 10 });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    await waitUntil(
      async () =>
        (await call('GET', '/v2/browser?status=destroyed')).body.sessions.some(
          (session: { id: string }) => session.id === id,
        ),
      30_000,
      'the idle session to end',
    );
    expect((await execute(id, { code: '1' })).status).toBe(404);
  });

  it('refuses bad bodies', async () => {
    expect((await call('POST', '/v2/browser', { ttl: 5 })).status).toBe(400);
    expect((await call('POST', '/v2/browser', { ttl: 60, bogus: true })).status).toBe(400);
  });
});

describe('a profile session', () => {
  it('saves the cookies its page set into the profile, for a later scrape', async () => {
    const created = await call('POST', '/v2/browser', { profile: { name: 'session-p', saveChanges: true } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    await execute(id, { code: `location.href = ${JSON.stringify(siteUrl('/login'))}` });
    expect((await execute(id, { code: 'document.querySelector("h1").textContent' })).body.result).toBe(
      'Logged in',
    );
    expect((await call('DELETE', `/v2/browser/${id}`)).status).toBe(200);

    const scraped = await call('POST', '/v2/scrape', {
      url: siteUrl('/whoami'),
      formats: ['markdown'],
      profile: { name: 'session-p', saveChanges: false },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.body.data.markdown).toContain('COOKIE is "session=SESSION-COOKIE"');

    const plain = await call('POST', '/v2/scrape', {
      url: siteUrl('/whoami'),
      formats: ['markdown'],
      maxAge: 0,
    });
    expect(plain.body.data.markdown).toContain('COOKIE is ""');
  });
});
