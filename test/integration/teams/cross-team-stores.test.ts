import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { HUB_PATH } from '../../../shared/protocol/messages';
import { domainOf, siteOf } from '../../../server/products/map/site-names';
import { cacheKey, normalizeCacheUrl } from '../../../server/scrape/capture/cache-key';
import { addPageToSearchIndex } from '../../../server/products/search/add-page-to-search-index';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { addOtherTeam, startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';

/**
 * What team A made is team A's, in every store that holds it, through every route that reads that
 * store: the scrape cache (entries of A's scope: its node's, its donated browser's, its logged-in
 * pool browser's captures), the map index, the search index, browser profiles and kept results.
 * Team A's data is put where the server itself puts it; team B then asks through each route (v1,
 * v2, jobs, MCP) and must never see it, while team A, asking the same, does (so each route is
 * shown to read the store). Browser sessions across teams: test/e2e/browser-sessions.test.ts.
 */

const ADMIN_API_KEY = 'admin-key-for-cross-team-stores-001';
const TEAM_A = 'default';
const CACHED = 'TEAM-A-CACHED-PAGE';
const MAPPED = 'team-a-private-report';
const SEARCHED = 'zebracornium';
const PROFILE_COOKIE = 'TEAM-A-PROFILE-COOKIE';

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamBKey: string;
const clients: Client[] = [];
let browser: Awaited<ReturnType<typeof connectFakeBrowser>>;
/** The tasks the pool browser was sent, as JSON. */
const tasks: string[] = [];
const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  site = createServer((request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html><head><title>Public</title></head><body><main><h1>The public page ${request.url}</h1>` +
          '<p>What the site says to anyone who asks, long enough to be content.</p><a href="/about">About</a></main></body></html>',
      );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 0, env: { ADMIN_API_KEY } });
  teamBKey = await addOtherTeam(tabhive);
  // A pool browser that answers every task with a plain page and shows the tasks to the test.
  const token = (await post(ADMIN_API_KEY, '/admin/v1/node-tokens', { label: 'pool' })).json.data
    .token as string;
  browser = await connectFakeBrowser(`${tabhive.url.replace(/^http/, 'ws')}${HUB_PATH}`);
  browser.hello(token);
  await browser.next('welcome');
  void (async () => {
    for (;;) {
      const task = await browser.next('task', 3_600_000).catch(() => undefined);
      if (task === undefined) return;
      tasks.push(JSON.stringify(task));
      const html = '<html><body><main><h1>The public page from a browser</h1></main></body></html>';
      browser.send({
        type: 'result',
        taskId: task.taskId,
        ok: true,
        capture: {
          url: task.spec.url,
          statusCode: 200,
          contentType: 'text/html',
          rawHtml: html,
          renderedHtml: html,
        },
      });
    }
  })();
});
afterAll(async () => {
  browser?.close();
  for (const client of clients) await client.close();
  await tabhive?.stop();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

type Answer = { status: number; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape

async function call(key: string, method: string, pathname: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${tabhive.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}
const post = (key: string, pathname: string, body: unknown) => call(key, 'POST', pathname, body);

/** A job's status once it is done (batch scrape or crawl). */
async function finished(key: string, pathname: string): Promise<Answer> {
  let answer: Answer = { status: 0, json: undefined };
  await waitUntil(
    async () => {
      answer = await call(key, 'GET', pathname);
      return answer.status !== 200 || ['completed', 'failed', 'cancelled'].includes(answer.json.status);
    },
    30_000,
    `${pathname} to finish`,
  );
  return answer;
}

/** An MCP tool's answer text, through the MCP SDK's client with the team's key. */
async function mcpTool(key: string, name: string, args: Record<string, unknown>): Promise<string> {
  const client = new Client({ name: 'cross-team', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${tabhive.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  const result = await client.callTool({ name, arguments: args });
  return JSON.stringify(result.content);
}

describe("team A's stores, read by team B", () => {
  it('the scrape cache: no route answers team B with an entry of team A', async () => {
    const url = siteUrl('/cached');
    const html = `<html><head><title>${CACHED}</title></head><body><h1>${CACHED}</h1><a href="/team-a-cached-link">x</a></body></html>`;
    await tabhive.tabhive.stores.cache.put({
      key: cacheKey(ScrapeRequestV2.parse({ url })),
      scope: TEAM_A,
      url: normalizeCacheUrl(url),
      capture: { url, statusCode: 200, contentType: 'text/html', rawHtml: html, renderedHtml: html },
      now: new Date(),
    });
    // Team A's own reads find it (before any other team's fresh capture is newer).
    expect((await post(tabhive.apiKey, '/v2/scrape', { url, lockdown: true })).json.data.markdown).toContain(
      CACHED,
    );
    expect((await post(tabhive.apiKey, '/v2/scrape', { url })).json.data.metadata.cacheState).toBe('hit');

    const lockdown = await post(teamBKey, '/v2/scrape', { url, lockdown: true });
    expect(lockdown.status).toBe(404);
    const cacheOnly = await post(teamBKey, '/v2/scrape', { url, minAge: 1 });
    expect(cacheOnly.status).toBe(404);
    const answers: unknown[] = [lockdown.json, cacheOnly.json];
    const v2 = await post(teamBKey, '/v2/scrape', { url });
    expect(v2.json.data.metadata.cacheState).toBe('miss');
    answers.push(v2.json, (await post(teamBKey, '/v1/scrape', { url })).json);
    const batch = await post(teamBKey, '/v2/batch/scrape', { urls: [url] });
    answers.push((await finished(teamBKey, `/v2/batch/scrape/${batch.json.id}`)).json);
    const crawl = await post(teamBKey, '/v2/crawl', { url, limit: 1 });
    answers.push((await finished(teamBKey, `/v2/crawl/${crawl.json.id}`)).json);
    answers.push((await post(teamBKey, '/v2/map', { url })).json);
    answers.push(await mcpTool(teamBKey, 'firecrawl_scrape', { url, formats: ['markdown'] }));
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain(CACHED);
      expect(JSON.stringify(answer)).not.toContain('team-a-cached-link');
    }
  });

  it("the map index: team A's own entries reach no map of team B", async () => {
    const entry = new URL(siteUrl(`/${MAPPED}`));
    await tabhive.tabhive.stores.mapIndex.record([
      {
        site: siteOf(entry),
        domain: domainOf(entry),
        url: entry.href,
        scope: TEAM_A,
        title: MAPPED,
        onPage: true,
      },
    ]);
    const start = siteUrl('/');
    expect(JSON.stringify((await post(tabhive.apiKey, '/v2/map', { url: start })).json)).toContain(MAPPED);
    const answers = [
      (await post(teamBKey, '/v2/map', { url: start })).json,
      (await post(teamBKey, '/v1/map', { url: start })).json,
      (await post(teamBKey, '/v2/map', { url: start, search: 'report' })).json,
      await mcpTool(teamBKey, 'firecrawl_map', { url: start }),
    ];
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(MAPPED);
  });

  it("the search index: team B's searches never find team A's pages", async () => {
    await addPageToSearchIndex(tabhive.tabhive.stores.searchIndex, {
      teamId: TEAM_A,
      url: siteUrl('/searched'),
      title: `Notes on ${SEARCHED}`,
      markdown: `Everything team A knows about ${SEARCHED}.`,
    });
    expect(JSON.stringify((await post(tabhive.apiKey, '/v2/search', { query: SEARCHED })).json)).toContain(
      '/searched',
    );
    const answers = [
      (await post(teamBKey, '/v2/search', { query: SEARCHED })).json,
      (await post(teamBKey, '/v1/search', { query: SEARCHED })).json,
      (await post(teamBKey, '/v2/search', { query: `site:127.0.0.1 ${SEARCHED}` })).json,
      await mcpTool(teamBKey, 'firecrawl_search', { query: SEARCHED }),
    ];
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain(SEARCHED);
      expect(JSON.stringify(answer)).not.toContain('/searched');
    }
  });

  it("kept results: team B reads none of team A's documents or jobs", async () => {
    const scraped = await post(tabhive.apiKey, '/v2/scrape', { url: siteUrl('/result') });
    const id = scraped.json.data.metadata.scrapeId as string;
    const batch = await post(tabhive.apiKey, '/v2/batch/scrape', { urls: [siteUrl('/batch')] });
    await finished(tabhive.apiKey, `/v2/batch/scrape/${batch.json.id}`);
    const crawl = await post(tabhive.apiKey, '/v2/crawl', { url: siteUrl('/crawl'), limit: 1 });
    await finished(tabhive.apiKey, `/v2/crawl/${crawl.json.id}`);
    expect((await call(tabhive.apiKey, 'GET', `/v2/scrape/${id}`)).status).toBe(200);

    const reads: Array<[string, string, unknown?]> = [
      ['GET', `/v2/scrape/${id}`],
      ['GET', `/v1/scrape/${id}`],
      ['POST', `/v2/scrape/${id}/interact`, { code: '1' }],
      ['DELETE', `/v2/scrape/${id}/interact`],
      ['GET', `/v2/batch/scrape/${batch.json.id}`],
      ['GET', `/v1/batch/scrape/${batch.json.id}`],
      ['GET', `/v2/crawl/${crawl.json.id}`],
      ['GET', `/v1/crawl/${crawl.json.id}`],
    ];
    for (const [method, pathname, body] of reads) {
      const answer = await call(teamBKey, method, pathname, body);
      expect(answer.status, `${method} ${pathname}`).toBe(404);
      expect(JSON.stringify(answer.json)).not.toContain('The public page');
    }
  });

  it("browser profiles: team B's scrape with the same name loads nothing of team A's", async () => {
    const saved = await tabhive.tabhive.stores.browserProfiles.replace(
      TEAM_A,
      'shop',
      {
        cookies: [
          {
            name: 'session',
            value: PROFILE_COOKIE,
            domain: '127.0.0.1',
            path: '/',
            hostOnly: true,
            secure: false,
            httpOnly: true,
            sameSite: 'lax',
          },
        ],
        localStorage: [],
      },
      0,
    );
    expect(saved).toBe('saved');
    const seen = tasks.length;
    const url = siteUrl('/profile');
    const forA = await post(tabhive.apiKey, '/v2/scrape', { url, profile: { name: 'shop' } });
    expect(forA.status, JSON.stringify(forA.json)).toBe(200);
    const forB = await post(teamBKey, '/v2/scrape', { url, profile: { name: 'shop' } });
    expect(forB.status, JSON.stringify(forB.json)).toBe(200);
    const [taskA, taskB] = tasks.slice(seen);
    expect(taskA).toContain(PROFILE_COOKIE);
    expect(taskB).toContain('"profile"');
    expect(taskB).not.toContain(PROFILE_COOKIE);
    expect(await tabhive.tabhive.stores.browserProfiles.names('team-b')).toEqual([]);
  });
});
