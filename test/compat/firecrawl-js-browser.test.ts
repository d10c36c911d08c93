import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The `firecrawl` npm package's browser session methods (browser, browserExecute, listBrowsers,
 * deleteBrowser) and a scrape's interaction (interact, stopInteraction) against Tabhive.
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let firecrawl: Firecrawl;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  site = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Compat page</title><body><h1>Compat heading</h1><p id="n">0</p></body>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
  firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('firecrawl-js browser sessions', () => {
  it('creates, executes in, lists and deletes a session', async () => {
    const session = await firecrawl.browser({ ttl: 120, activityTtl: 60, streamWebView: true });
    expect(session.success).toBe(true);
    expect(session.id).toEqual(expect.any(String));
    expect(session.cdpUrl).toMatch(/^ws:\/\//);
    expect(session.liveViewUrl).toMatch(/^http:\/\//);
    const id = session.id as string;

    // `language: "node"` is Playwright code, with `page`, `context` and `browser` in scope.
    await firecrawl.browserExecute(id, {
      code: `await page.goto(${JSON.stringify(siteUrl('/page'))})`,
      language: 'node',
    });
    const executed = await firecrawl.browserExecute(id, {
      code: 'console.log("hi"); return await page.locator("h1").textContent()',
      language: 'node',
      timeout: 10,
    });
    expect(executed).toMatchObject({
      success: true,
      result: 'Compat heading',
      stdout: 'hi\n',
      exitCode: 0,
      killed: false,
    });

    // The client's own default language is bash, which Tabhive refuses with a clear message.
    await expect(firecrawl.browserExecute(id, { code: 'echo hi' })).rejects.toThrow(/node/);
    await expect(firecrawl.browserExecute(id, { code: 'print(1)', language: 'python' })).rejects.toThrow(
      /Python execution is not available on this server/,
    );

    const listed = await firecrawl.listBrowsers({ status: 'active' });
    expect(listed.success).toBe(true);
    expect(listed.sessions?.map((item) => item.id)).toContain(id);

    const deleted = await firecrawl.deleteBrowser(id);
    expect(deleted).toMatchObject({ success: true, status: 'destroyed', creditsBilled: 2 });
    expect(deleted.sessionDurationMs).toBeGreaterThan(0);
    const destroyed = await firecrawl.listBrowsers({ status: 'destroyed' });
    expect(destroyed.sessions?.find((item) => item.id === id)?.status).toBe('destroyed');
  });

  it("runs Firecrawl's quick-start code as written", async () => {
    // docs.firecrawl.dev/features/browser, Quick start: only the URL is the test's own page.
    const session = await firecrawl.browser();
    const result = await firecrawl.browserExecute(session.id as string, {
      code: `
    await page.goto("${siteUrl('/quick-start')}");
    const title = await page.title();
    console.log(title);
  `,
      language: 'node',
    });
    expect(result.result).toBe('Compat page');
    // The same steps returning the title instead of printing it.
    const returned = await firecrawl.browserExecute(session.id as string, {
      code: `await page.goto("${siteUrl('/')}"); return await page.title();`,
      language: 'node',
    });
    expect(returned).toMatchObject({ success: true, result: 'Compat page', exitCode: 0 });
    await firecrawl.deleteBrowser(session.id as string);
  });

  it('interacts with a scrape and stops the interaction', async () => {
    const document = await firecrawl.scrape(siteUrl('/page'), { formats: ['markdown'] });
    const jobId = document.metadata?.scrapeId as string;
    expect(jobId).toEqual(expect.any(String));

    // interact() sends language "node": Playwright code on the scrape's page.
    const first = await firecrawl.interact(jobId, {
      code: 'await page.evaluate(() => { document.getElementById("n").textContent = "7"; }); return await page.title();',
    });
    expect(first).toMatchObject({ success: true, result: 'Compat page' });
    const second = await firecrawl.interact(jobId, { code: 'return await page.locator("#n").textContent()' });
    expect(second.result).toBe('7');

    const stopped = await firecrawl.stopInteraction(jobId);
    expect(stopped).toMatchObject({ success: true, status: 'destroyed' });
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Body = any;

describe('firecrawl-js session replay and /v2/interact', () => {
  const http = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Body }> => {
    const response = await fetch(`${tabhive.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${tabhive.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };

  it("records an interaction's page, served at the replay routes (the client has no replay method)", async () => {
    const document = await firecrawl.scrape(siteUrl('/replayed'), { formats: ['markdown'] });
    const jobId = document.metadata?.scrapeId as string;
    const interaction = await firecrawl.interact(jobId, { code: 'return 1' });
    const id = /\/v2\/browser\/([^/]+)\/cdp$/.exec(String(interaction.cdpUrl))?.[1] ?? '';
    expect(id).not.toBe('');

    const pageEvents = async () => JSON.stringify((await http('GET', `/v2/browser/${id}/replay/0`)).body);
    await expect.poll(pageEvents, { timeout: 30_000, interval: 200 }).toContain('Compat heading');
    const listed = await http('GET', `/v2/interact/${id}/replay`);
    expect(listed.body).toMatchObject({
      success: true,
      pageCount: 1,
      pages: [{ pageId: '0', url: `/v2/interact/${id}/replay/0`, pageUrl: siteUrl('/replayed') }],
    });
    const page = await http('GET', `/v2/browser/${id}/replay/0`);
    expect(page.body.events.some((event: { type: number }) => event.type === 2)).toBe(true);
    await firecrawl.stopInteraction(jobId);
  });

  it('answers the /v2/browser routes under /v2/interact, seen by the client', async () => {
    const created = await http('POST', '/v2/interact', { ttl: 60, recordSession: false });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, id: expect.any(String) });
    const id = created.body.id as string;
    expect((await firecrawl.listBrowsers({ status: 'active' })).sessions?.map((item) => item.id)).toContain(
      id,
    );
    const listed = await http('GET', '/v2/interact?status=active');
    expect(listed.body.sessions.map((item: { id: string }) => item.id)).toContain(id);
    const deleted = await http('DELETE', `/v2/interact/${id}`);
    expect(deleted.body).toMatchObject({ success: true, status: 'destroyed' });
    expect((await http('GET', `/v2/interact/${id}/replay`)).body).toMatchObject({
      success: true,
      pageCount: 0,
    });
  });
});
