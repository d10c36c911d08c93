import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * Browser sessions are sealed rooms (docs/browser-sessions.md): each runs in a browser launched
 * for it alone, in a tab that never showed another task's page and holds no extension world, and
 * no session holds a pool browser that other teams' scrapes wait for (N3 and N6 of
 * docs/security.md). With one pool browser, as the red team measured.
 */

let site: Server;
const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Body = any;
type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

async function call(tabhive: Tabhive, method: string, path: string, body: unknown, apiKey: string) {
  const response = await fetch(`${tabhive.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

/** A plain scrape that a browser runs (waitFor), never from the cache. */
const browserScrape = (tabhive: Tabhive, apiKey: string, pathname: string) =>
  call(
    tabhive,
    'POST',
    '/v2/scrape',
    { url: siteUrl(pathname), formats: ['markdown'], waitFor: 200, maxAge: 0, timeout: 30_000 },
    apiKey,
  );

/**
 * What a caller sees of the session's tab through its cdpUrl: the execution contexts the relay
 * lists once Runtime is enabled, and the page's address and history.
 */
async function lookThroughRelay(cdpUrl: string, apiKey: string) {
  const socket = new WebSocket(cdpUrl, { headers: { Authorization: `Bearer ${apiKey}` } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const contexts: Body[] = [];
  const answers = new Map<number, (message: Body) => void>();
  let attached: (sessionId: string) => void = () => {};
  const sessionId = new Promise<string>((resolve) => (attached = resolve));
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Body;
    if (message.method === 'Target.attachedToTarget') attached(message.params.sessionId);
    if (message.method === 'Runtime.executionContextCreated') contexts.push(message.params.context);
    if (typeof message.id === 'number') answers.get(message.id)?.(message);
  });
  let nextId = 1;
  const send = (method: string, params: Record<string, unknown>, session?: string) => {
    const id = nextId++;
    const answer = new Promise<Body>((resolve) => answers.set(id, resolve));
    socket.send(
      JSON.stringify({ id, method, params, ...(session === undefined ? {} : { sessionId: session }) }),
    );
    return answer;
  };
  try {
    await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
    const page = await sessionId;
    const enabled = await send('Runtime.enable', {}, page);
    expect(enabled.error).toBeUndefined();
    const evaluated = await send(
      'Runtime.evaluate',
      {
        expression: '[location.href, history.length, document.body?.innerText ?? "", typeof chrome?.storage]',
        returnByValue: true,
      },
      page,
    );
    // Contexts come as events before and after Runtime.enable answers; a moment for the last ones.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // As the red team did: code run in each context id the tab may have, listed or not. The
    // extension's world is the one where chrome.storage is there to read.
    const storageSeen: number[] = [];
    for (let contextId = 1; contextId <= 40; contextId += 1) {
      const probed = await send(
        'Runtime.evaluate',
        { expression: 'typeof globalThis.chrome?.storage?.local?.get', contextId, returnByValue: true },
        page,
      );
      if (probed.result?.result?.value === 'function') storageSeen.push(contextId);
    }
    return { contexts, storageSeen, page: evaluated.result.result.value as [string, number, string, string] };
  } finally {
    socket.close();
  }
}

/** The session's tab holds the page's own world only: no context of the extension's. */
function expectOnlyThePagesWorld({ contexts, storageSeen }: { contexts: Body[]; storageSeen: number[] }) {
  expect(storageSeen).toEqual([]);
  for (const context of contexts) {
    expect(context.origin).not.toMatch(/^chrome-extension:/);
    expect(context.auxData?.type).not.toBe('isolated');
    expect(context.name).not.toMatch(/tabhive/i);
  }
}

/**
 * Opens a session of the default team, checks through its relay that it is a blank tab that never
 * showed a page and reaches no world but the page's, and ends it.
 */
async function expectBlankSessionThenEnd(tabhive: Tabhive) {
  const session = await call(tabhive, 'POST', '/v2/browser', { ttl: 120 }, tabhive.apiKey);
  expect(session.body).toMatchObject({ success: true });
  const seen = await lookThroughRelay(session.body.cdpUrl, tabhive.apiKey);
  expect(seen.page).toEqual(['about:blank', 1, '', 'undefined']);
  expectOnlyThePagesWorld(seen);
  expect(
    (await call(tabhive, 'DELETE', `/v2/browser/${session.body.id}`, undefined, tabhive.apiKey)).status,
  ).toBe(200);
}

beforeAll(async () => {
  site = createServer((request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html><head><title>Page</title></head><body><h1>TEAM-PAGE ${request.url ?? ''}</h1></body></html>`,
      );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
});

describe('sessions in browsers of their own (BROWSERS=1, SESSION_BROWSERS=2)', () => {
  let tabhive: Tabhive;
  let teamB: string;
  let teamC: string;

  beforeAll(async () => {
    tabhive = await startTestTabhive({
      browsers: 1,
      env: { HTTP_FAST_PATH: 'false', SESSION_BROWSERS: '2' },
    });
    teamB = await addOtherTeam(tabhive);
    teamC = await addOtherTeam(tabhive, { id: 'team-c', name: 'Team C' });
  });
  afterAll(async () => {
    await tabhive?.stop();
  });

  it('lets other teams scrape and open sessions while a team holds one (N6)', async () => {
    const a = await call(tabhive, 'POST', '/v2/browser', { ttl: 300 }, tabhive.apiKey);
    expect(a.status).toBe(200);
    // The session has a browser of its own: the pool still has its one browser, free.
    expect(tabhive.tabhive.hub.connectedBrowsers('basic')).toBe(1);
    expect(tabhive.tabhive.hub.connectedBrowsers()).toBe(2);

    const scraped = await browserScrape(tabhive, teamB, '/team-b');
    expect(scraped.status).toBe(200);
    expect(scraped.body.data.markdown).toContain('TEAM-PAGE /team-b');

    const b = await call(tabhive, 'POST', '/v2/browser', { ttl: 300 }, teamB);
    expect(b.status).toBe(200);
    const bRan = await call(
      tabhive,
      'POST',
      `/v2/browser/${b.body.id}/execute`,
      { code: 'return 6 * 7' },
      teamB,
    );
    expect(bRan.body).toMatchObject({ success: true, result: '42' });

    // A team holds at most all but one of the session browsers, and the server at most all of them.
    const aAgain = await call(tabhive, 'POST', '/v2/browser', { ttl: 300 }, tabhive.apiKey);
    expect(aAgain.status).toBe(429);
    expect(aAgain.body).toMatchObject({ success: false, code: 'BROWSER_SESSION_LIMIT' });
    const c = await call(tabhive, 'POST', '/v2/browser', { ttl: 300 }, teamC);
    expect(c.status).toBe(503);
    expect(c.body).toMatchObject({ success: false, code: 'SESSION_BROWSERS_BUSY' });
    expect(c.body.error).toMatch(/SESSION_BROWSERS/);
    // …and scrapes go on meanwhile.
    expect((await browserScrape(tabhive, teamC, '/team-c')).status).toBe(200);

    for (const [id, key] of [
      [a.body.id, tabhive.apiKey],
      [b.body.id, teamB],
    ] as const) {
      expect((await call(tabhive, 'DELETE', `/v2/browser/${id}`, undefined, key)).status).toBe(200);
    }
    // Each session's browser is closed with it.
    await waitUntil(() => tabhive.tabhive.hub.connectedBrowsers() === 1, 10_000, 'session browsers to close');
    const cAfter = await call(tabhive, 'POST', '/v2/browser', { ttl: 60 }, teamC);
    expect(cAfter.body).toMatchObject({ success: true });
    expect((await call(tabhive, 'DELETE', `/v2/browser/${cAfter.body.id}`, undefined, teamC)).status).toBe(
      200,
    );
  });

  it('opens a session after the team’s own browser scrape on a blank tab with no extension world (N3)', async () => {
    const before = tabhive.tabhive.hub.connectedBrowsers();
    expect((await browserScrape(tabhive, tabhive.apiKey, '/secret-of-a')).status).toBe(200);
    await expectBlankSessionThenEnd(tabhive);
    // The session's tab went with its browser.
    await waitUntil(
      () => tabhive.tabhive.hub.connectedBrowsers() === before,
      10_000,
      'the session browser to close',
    );
  });

  it('saves a profile session’s localStorage back, read without the extension’s content-script world', async () => {
    const key = tabhive.apiKey;
    const session = await call(tabhive, 'POST', '/v2/browser', { ttl: 120, profile: { name: 'ls' } }, key);
    expect(session.body).toMatchObject({ success: true });
    const { id } = session.body;
    await call(
      tabhive,
      'POST',
      `/v2/browser/${id}/execute`,
      { code: `location.href = ${JSON.stringify(siteUrl('/ls'))}`, language: 'page' },
      key,
    );
    const wrote = await call(
      tabhive,
      'POST',
      `/v2/browser/${id}/execute`,
      { code: `localStorage.setItem('saved', 'PROFILE-LS-VALUE'); location.pathname`, language: 'page' },
      key,
    );
    expect(wrote.body).toMatchObject({ success: true, result: '/ls' });
    expect((await call(tabhive, 'DELETE', `/v2/browser/${id}`, undefined, key)).status).toBe(200);

    const saved = await tabhive.tabhive.stores.browserProfiles.load('default', 'ls');
    expect(saved.state.localStorage).toEqual([
      { origin: new URL(siteUrl('/')).origin, items: [{ key: 'saved', value: 'PROFILE-LS-VALUE' }] },
    ]);
  });
});

describe('sessions on the pool when the server launches no session browsers (SESSION_BROWSERS=0)', () => {
  let tabhive: Tabhive;

  beforeAll(async () => {
    tabhive = await startTestTabhive({
      browsers: 1,
      env: { HTTP_FAST_PATH: 'false', SESSION_BROWSERS: '0' },
    });
  });
  afterAll(async () => {
    await tabhive?.stop();
  });

  const status = () => tabhive.tabhive.hub.browserStatuses()[0]?.status;

  it('gives a session a new tab in wiped state, never the warm tab of the team’s last scrape (N3)', async () => {
    expect((await browserScrape(tabhive, tabhive.apiKey, '/secret-of-a')).status).toBe(200);
    await waitUntil(() => status()?.runningTasks === 0, 5_000, 'the scrape to clean up');
    const before = status();
    await expectBlankSessionThenEnd(tabhive);
    // Its tab (its window) is closed, not kept among the warm ones.
    await waitUntil(
      () => status() !== before && status()?.runningTasks === 0,
      10_000,
      'the session to clean up and report',
    );
    expect(status()).toMatchObject({ windows: before?.windows, pooledTabs: 0, debuggerSessions: 0 });
  });
});
