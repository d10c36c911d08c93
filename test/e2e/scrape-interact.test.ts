import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * `POST /v2/scrape/:id/interact`: the first call opens a tab on the scrape's final page (with the
 * scrape's headers), later calls reuse it, `DELETE` ends it; other teams' scrapes are not found.
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamBKey: string;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/start') {
      response.writeHead(302, { location: '/counter' }).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html><head><title>Counter</title></head><body><h1>Counter</h1>` +
          `<p id="who">${request.headers['x-who'] ?? 'anonymous'}</p><button id="add">Add</button><p id="n">0</p>` +
          `<script>document.getElementById('add').onclick = () => { const n = document.getElementById('n'); n.textContent = String(Number(n.textContent) + 1); };</script>` +
          `</body></html>`,
      );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
  teamBKey = await addOtherTeam(tabhive);
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

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

describe('interact with a scrape', () => {
  let scrapeId: string;

  it("opens the scrape's final page with its headers, and keeps it between calls", async () => {
    const scraped = await call('POST', '/v2/scrape', {
      url: siteUrl('/start'),
      formats: ['markdown'],
      headers: { 'x-who': 'interactor' },
    });
    expect(scraped.status).toBe(200);
    scrapeId = scraped.body.data.metadata.scrapeId;

    const first = await call('POST', `/v2/scrape/${scrapeId}/interact`, {
      // Playwright code (language "node", the default), as Firecrawl's interact runs it.
      code: 'return (await page.evaluate(() => location.pathname)) + " " + (await page.locator("#who").textContent())',
      language: 'node',
    });
    expect(first.status).toBe(200);
    expect(first.body, JSON.stringify(first.body)).toMatchObject({
      success: true,
      result: '/counter interactor',
      exitCode: 0,
    });
    expect(first.body.liveViewUrl).toMatch(/\/live\//);

    const clicked = await call('POST', `/v2/scrape/${scrapeId}/interact`, {
      code: 'await page.click("#add"); await page.click("#add"); return await page.locator("#n").textContent()',
    });
    expect(clicked.body.result).toBe('2');
    // The same tab: the count it left is still there.
    const again = await call('POST', `/v2/scrape/${scrapeId}/interact`, {
      code: 'document.getElementById("n").textContent',
      language: 'page',
    });
    expect(again.body.result).toBe('2');
    expect(again.body.liveViewUrl).toBe(first.body.liveViewUrl);
  });

  it('explains that a prompt needs a model when none is configured', async () => {
    const prompted = await call('POST', `/v2/scrape/${scrapeId}/interact`, { prompt: 'click Add' });
    expect(prompted.status).toBe(400);
    expect(prompted.body.error).toContain('LLM_BASE_URL');
  });

  it('is not found for another team, nor for an unknown scrape', async () => {
    expect((await call('POST', `/v2/scrape/${scrapeId}/interact`, { code: '1' }, teamBKey)).status).toBe(404);
    expect((await call('DELETE', `/v2/scrape/${scrapeId}/interact`, undefined, teamBKey)).status).toBe(404);
    const unknown = await call('POST', '/v2/scrape/00000000-0000-4000-8000-000000000000/interact', {
      code: '1',
    });
    expect(unknown.status).toBe(404);
  });

  it('stops on DELETE, and a later call starts from the page again', async () => {
    const stopped = await call('DELETE', `/v2/scrape/${scrapeId}/interact`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ success: true, status: 'destroyed', creditsBilled: 2 });
    expect(stopped.body.sessionDurationMs).toBeGreaterThan(0);

    const fresh = await call('POST', `/v2/scrape/${scrapeId}/interact`, {
      code: 'document.getElementById("n").textContent',
      language: 'page',
    });
    expect(fresh.body.result).toBe('0');
    expect((await call('DELETE', `/v2/scrape/${scrapeId}/interact`)).status).toBe(200);
  });
});
