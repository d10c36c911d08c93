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

    await firecrawl.browserExecute(id, {
      code: `location.href = ${JSON.stringify(siteUrl('/page'))}`,
      language: 'node',
    });
    const executed = await firecrawl.browserExecute(id, {
      code: 'console.log("hi"); document.querySelector("h1").textContent',
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

    const listed = await firecrawl.listBrowsers({ status: 'active' });
    expect(listed.success).toBe(true);
    expect(listed.sessions?.map((item) => item.id)).toContain(id);

    const deleted = await firecrawl.deleteBrowser(id);
    expect(deleted).toMatchObject({ success: true, status: 'destroyed', creditsBilled: 2 });
    expect(deleted.sessionDurationMs).toBeGreaterThan(0);
    const destroyed = await firecrawl.listBrowsers({ status: 'destroyed' });
    expect(destroyed.sessions?.find((item) => item.id === id)?.status).toBe('destroyed');
  });

  it('interacts with a scrape and stops the interaction', async () => {
    const document = await firecrawl.scrape(siteUrl('/page'), { formats: ['markdown'] });
    const jobId = document.metadata?.scrapeId as string;
    expect(jobId).toEqual(expect.any(String));

    const first = await firecrawl.interact(jobId, {
      code: 'document.getElementById("n").textContent = "7"; document.title',
    });
    expect(first).toMatchObject({ success: true, result: 'Compat page' });
    const second = await firecrawl.interact(jobId, { code: 'document.getElementById("n").textContent' });
    expect(second.result).toBe('7');

    const stopped = await firecrawl.stopInteraction(jobId);
    expect(stopped).toMatchObject({ success: true, status: 'destroyed' });
  });
});
