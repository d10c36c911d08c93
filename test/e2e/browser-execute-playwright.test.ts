import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * `POST /v2/browser/:id/execute` with `language: "node"` end to end: the caller's Playwright code
 * runs in the server's isolate with `page`, `context` and `browser` bridged to the session's tab
 * (a launched Chromium with the built extension) over the session's own CDP relay. Then the walls:
 * no file system through Playwright's `path` options, no server-side requests or callbacks, the URL
 * policy on navigations, one tab of one team, and the handle, call and size limits.
 *
 * The site is on 127.0.0.2 (allowed as if public); a private service on 127.0.0.1 is refused.
 */

const SITE_ADDRESS = '127.0.0.2';
const PRIVATE_SECRET = 'PRIVATE-SERVICE-SECRET-8812';

let site: Server;
let privateService: Server;
let privateHits = 0;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamBKey: string;

const siteUrl = (pathname: string) =>
  `http://${SITE_ADDRESS}:${(site.address() as AddressInfo).port}${pathname}`;
const privateUrl = () => `http://127.0.0.1:${(privateService.address() as AddressInfo).port}/`;

const PAGES: Record<string, string> = {
  '/': '<!doctype html><title>Execute fixture</title><h1>Hello sandbox</h1>',
  '/form':
    '<!doctype html><title>Form</title><label>Name <input id="name"></label><button id="go">Go</button><p id="out"></p>' +
    "<ul><li>one</li><li>two</li><li>three</li></ul><script>document.getElementById('go').onclick = () => {" +
    "document.getElementById('out').textContent = 'Hello ' + document.getElementById('name').value; };</script>",
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Body = any;

async function call(method: string, pathname: string, body?: unknown, apiKey = tabhive.apiKey) {
  const response = await fetch(`${tabhive.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

const execute = (id: string, body: Record<string, unknown>, apiKey?: string) =>
  call('POST', `/v2/browser/${id}/execute`, body, apiKey);

/** A new session; an ended one may hold its browser for a moment after its DELETE. */
async function newSession(apiKey = tabhive.apiKey): Promise<string> {
  let created = await call('POST', '/v2/browser', { ttl: 300 }, apiKey);
  await waitUntil(
    async () => {
      if (created.status === 429 || created.status === 503) {
        created = await call('POST', '/v2/browser', { ttl: 300 }, apiKey);
      }
      return created.status !== 429 && created.status !== 503;
    },
    60_000,
    'a session browser to be free',
  );
  expect(created.status).toBe(200);
  return created.body.id as string;
}

/** Runs Playwright code and gives its response body. */
const node = async (id: string, code: string, timeout = 30) =>
  (await execute(id, { code, language: 'node', timeout })).body;

beforeAll(async () => {
  site = createServer((request, response) => {
    const page = PAGES[new URL(request.url ?? '/', 'http://site').pathname];
    if (page === undefined)
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Missing</title>');
    else response.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, SITE_ADDRESS, resolve));
  privateService = createServer((_request, response) => {
    privateHits += 1;
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${PRIVATE_SECRET}</p>`);
  });
  await new Promise<void>((resolve) => privateService.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({
    browsers: 1,
    env: { ALLOW_PRIVATE_NETWORKS: 'false', ALLOWED_PRIVATE_HOSTS: SITE_ADDRESS },
  });
  teamBKey = await addOtherTeam(tabhive);
});

afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
  await new Promise((resolve) => privateService?.close(resolve));
});

describe('execute with language "node" (Playwright)', () => {
  let id: string;

  afterAll(async () => {
    if (id !== undefined) await call('DELETE', `/v2/browser/${id}`);
  });

  it("runs Firecrawl's quick-start code as written", async () => {
    id = await newSession();

    const returned = await node(
      id,
      `await page.goto(${JSON.stringify(siteUrl('/'))}); return await page.title();`,
    );
    expect(returned).toMatchObject({ success: true, result: 'Execute fixture', exitCode: 0, killed: false });

    // The documentation's form: it prints the title, and the result is what it printed.
    const printed = await node(
      id,
      `
    await page.goto(${JSON.stringify(siteUrl('/'))});
    const title = await page.title();
    console.log(title);
  `,
    );
    expect(printed).toMatchObject({ result: 'Execute fixture', stdout: 'Execute fixture\n', exitCode: 0 });
  });

  it('gives the code Playwright: locators, actions, evaluate with functions and handles, bytes', async () => {
    const outcome = await node(
      id,
      `
      const response = await page.goto(${JSON.stringify(siteUrl('/form'))});
      await page.getByLabel('Name').fill('Ada');
      await page.locator('#go').click();
      await page.keyboard.press('Tab');
      const out = await page.locator('#out').textContent();
      const items = await page.locator('li').allTextContents();
      const count = await page.locator('li').count();
      const second = await page.locator('li').nth(1).innerText();
      const viaFunction = await page.evaluate((suffix) => document.title + suffix, '!');
      const viaEval = await page.$eval('h1, p#out', (el, prefix) => prefix + el.textContent, '> ');
      const handle = await page.$('#out');
      const viaHandle = await page.evaluate((el) => el.id, handle);
      const shot = await page.screenshot();
      const png = shot.toString('base64').slice(0, 8);
      console.warn('a warning');
      return { status: response.status(), ok: response.ok(), url: page.url(), out, items, count, second,
        viaFunction, viaEval, viaHandle, png, isBuffer: Buffer.isBuffer(shot), same: page.context() === context,
        pages: context.pages().length, contexts: browser.contexts().length };
    `,
    );
    expect(outcome).toMatchObject({ exitCode: 0, stderr: 'a warning\n' });
    expect(JSON.parse(outcome.result)).toEqual({
      status: 200,
      ok: true,
      url: siteUrl('/form'),
      out: 'Hello Ada',
      items: ['one', 'two', 'three'],
      count: 3,
      second: 'two',
      viaFunction: 'Form!',
      viaEval: '> Hello Ada',
      viaHandle: 'out',
      png: 'iVBORw0K',
      isBuffer: true,
      same: true,
      pages: 1,
      contexts: 1,
    });
  });

  it('reports a throw with what was logged, stops a run at its timeout, and goes on', async () => {
    const thrown = await node(
      id,
      'console.log("before"); await page.locator("#nothing").click({ timeout: 500 });',
    );
    expect(thrown).toMatchObject({ success: true, exitCode: 1, killed: false, stdout: 'before\n' });
    expect(thrown.error).toMatch(/TimeoutError|Timeout 500ms/);

    const slow = await node(
      id,
      'console.log("waiting"); await page.waitForTimeout(60000); return "never"',
      2,
    );
    expect(slow).toMatchObject({ exitCode: 124, killed: true, stdout: 'waiting\n', result: '' });
    expect(slow.error).toMatch(/timed out after 2 s/);

    const looping = await node(id, 'for (;;) {}', 2);
    expect(looping).toMatchObject({ exitCode: 124, killed: true });

    expect(await node(id, 'return await page.title()')).toMatchObject({ result: 'Form', exitCode: 0 });
  });

  it('keeps in-page JavaScript under language "page"', async () => {
    const inPage = await execute(id, {
      code: 'console.log("in page"); document.querySelector("li").textContent',
      language: 'page',
    });
    expect(inPage.body).toMatchObject({ result: 'one', stdout: 'in page\n', exitCode: 0 });
    // The same text as node code is Playwright code, where there is no document.
    const asNode = await node(id, 'return document.title');
    expect(asNode).toMatchObject({ exitCode: 1 });
    expect(asNode.error).toMatch(/document is not defined/);
  });

  it('answers python and bash with a 400 that says why and what to send', async () => {
    const python = await execute(id, { code: 'print(await page.title())', language: 'python' });
    expect(python.status).toBe(400);
    expect(python.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(python.body.error).toMatch(/Python execution is not available on this server.*language "node"/s);
    const bash = await execute(id, { code: 'echo hi', language: 'bash' });
    expect(bash.status).toBe(400);
    expect(bash.body.error).toMatch(/Bash execution is not available on this server.*language "node"/s);
  });
});

describe('the walls around Playwright code', () => {
  let id: string;

  beforeAll(async () => {
    id = await newSession();
    await node(id, `await page.goto(${JSON.stringify(siteUrl('/'))})`);
  });

  it('writes and reads no file on the server through Playwright', async () => {
    const target = path.join(os.tmpdir(), `tabhive-execute-${process.pid}.png`);
    const written = await node(
      id,
      `await page.screenshot({ path: ${JSON.stringify(target)} }); return "written"`,
    );
    expect(written).toMatchObject({ exitCode: 1 });
    expect(written.error).toMatch(/cannot take a 'path'/);
    expect(existsSync(target)).toBe(false);

    const script = await node(id, `await page.addScriptTag({ path: '/etc/passwd' }); return "added"`);
    expect(script.error).toMatch(/cannot take a 'path'/);
    const offered = await node(
      id,
      `return [typeof page.setInputFiles, typeof context.storageState, typeof context.tracing, typeof page.video,
        typeof page.routeFromHAR, typeof page.locator('input').setInputFiles]`,
    );
    expect(JSON.parse(offered.result)).toEqual(Array(6).fill('undefined'));
  });

  it('makes no request and runs no callback on the server', async () => {
    const offered = await node(
      id,
      `return [typeof context.request, typeof page.request, typeof page.on, typeof page.route, typeof context.route,
        typeof page.exposeFunction, typeof browser.newContext, typeof context.newPage, typeof page.close,
        typeof browser.close, typeof context.newCDPSession]`,
    );
    expect(JSON.parse(offered.result)).toEqual(Array(11).fill('undefined'));
    // A predicate would run on the server: only page functions may be functions.
    const predicate = await node(id, 'await page.waitForResponse((response) => true, { timeout: 100 })');
    expect(predicate.error).toMatch(/cannot take a function/);
  });

  it('navigates only where the URL policy lets the session go', async () => {
    const refused = await node(
      id,
      `await page.goto(${JSON.stringify(privateUrl())}); return await page.content()`,
    );
    expect(refused.exitCode).toBe(1);
    expect(refused.error).toMatch(/refused by the URL policy/);
    const file = await node(id, "await page.goto('file:///etc/passwd'); return await page.content()");
    expect(file.exitCode).toBe(1);
    expect(file.result).not.toMatch(/root:/);
    expect(privateHits).toBe(0);
    expect(await node(id, 'return page.url()')).toMatchObject({ result: siteUrl('/') });
  });

  it("reaches only its own session's one tab, never another team's", async () => {
    const other = { body: { id: await newSession(teamBKey) } };
    try {
      await node(id, `await page.goto(${JSON.stringify(siteUrl('/form'))})`);
      const seen = await node(
        id,
        'return { contexts: browser.contexts().length, pages: browser.contexts().flatMap((c) => c.pages()).map((p) => p.url()) }',
      );
      expect(JSON.parse(seen.result)).toEqual({ contexts: 1, pages: [siteUrl('/form')] });
      // Team B's session is not this team's to run code in.
      expect((await execute(other.body.id, { code: 'return 1', language: 'node' })).status).toBe(404);
      expect((await execute(id, { code: 'return 1', language: 'node' }, teamBKey)).status).toBe(404);
      expect(await node(other.body.id, 'return page.url()')).toMatchObject({ success: false });
    } finally {
      await call('DELETE', `/v2/browser/${other.body.id}`, undefined, teamBKey);
    }
  });

  it('bounds the Playwright objects, the calls and the size of what a call brings back', async () => {
    const handles = await node(id, 'for (let i = 0; i < 10001; i++) page.locator("#n" + i); return "all"');
    expect(handles.error).toMatch(/holds 10000 Playwright objects/);
    const calls = await node(id, 'for (let i = 0; i < 20001; i++) page.url(); return "all"');
    expect(calls.error).toMatch(/more than 20000 Playwright calls/);
    const inFlight = await node(id, 'await Promise.all(Array.from({ length: 100 }, () => page.title()))');
    expect(inFlight.error).toMatch(/already waits on 64 Playwright calls/);
    const big = await node(id, 'return (await page.evaluate(() => "x".repeat(5 * 1024 * 1024))).length');
    expect(big.error).toMatch(/larger than 4194304 characters/);
    const memory = await node(
      id,
      'const kept = []; for (;;) kept.push(await page.evaluate(() => "y".repeat(1 << 20)))',
    );
    expect(memory).toMatchObject({ killed: true, exitCode: 137 });
    // The session outlives all of it.
    expect(await node(id, 'return await page.title()')).toMatchObject({ result: 'Form', exitCode: 0 });
  });
});
