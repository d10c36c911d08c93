import Firecrawl, { FirecrawlAppV1 } from 'firecrawl';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive, type RunningTabhive } from '../../../server/start-tabhive';
import { FAKE_TOKENS_PER_ANSWER, startFakeLlmServer } from '../../helpers/fake-llm-server';

/**
 * Historical credit and token usage and the queue status, through the real routes and the real
 * charging paths: scrapes over the HTTP fast path (no browser), json through a fake model that
 * reports its tokens, and a batch whose pages wait because no browser is connected.
 */

const ADMIN_KEY = 'admin-key-for-usage-history-tests';

const PAGE = `<!doctype html><html><head><title>Price list</title></head>
<body><main><h1>Price list</h1><p>The widget costs 12 euros and ships in two days.</p>
<p>${'Widgets are sturdy and made to last. '.repeat(20)}</p></main></body></html>`;

let site: Server;
let siteUrl: string;
let llm: Awaited<ReturnType<typeof startFakeLlmServer>>;
let dataDir: string;
let tabhive: RunningTabhive;
let keyA: string;
let keyB: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function call(method: string, pathname: string, key: string, body?: unknown): Promise<any> {
  const response = await fetch(`${tabhive.url}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

const masked = (key: string) => `fc-…${key.slice(-4)}`;
const monthStart = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
};

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  llm = await startFakeLlmServer({ fallback: '{"price": 12}' });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-usage-history-'));
  tabhive = await startTabhive({
    config: loadConfig({
      PORT: '0',
      BROWSERS: '0',
      DATA_DIR: dataDir,
      ADMIN_API_KEY: ADMIN_KEY,
      ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
      LLM_BASE_URL: llm.baseUrl,
      TEAM_CONCURRENCY: '3',
    }),
    server: createServer(),
    log: createLog({ quiet: true }),
  });
  await call('POST', '/admin/v1/teams', ADMIN_KEY, { id: 'history' });
  keyA = (await call('POST', '/admin/v1/teams/history/keys', ADMIN_KEY, { label: 'a' })).json.data.apiKey;
  keyB = (await call('POST', '/admin/v1/teams/history/keys', ADMIN_KEY, { label: 'b' })).json.data.apiKey;
});
afterAll(async () => {
  await tabhive?.stop();
  await llm?.close();
  await new Promise((resolve) => site?.close(resolve));
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

describe('historical usage and queue status', () => {
  it('books every credit and token by month under the key that spent it', async () => {
    // Nothing used yet: the current month, at 0.
    const before = await call('GET', '/v2/team/credit-usage/historical', keyA);
    expect(before.json).toEqual({
      success: true,
      periods: [{ startDate: monthStart(), endDate: expect.any(String), creditsUsed: 0 }],
    });

    const plain = await call('POST', '/v2/scrape', keyA, { url: `${siteUrl}/a`, maxAge: 0 });
    expect(plain.status).toBe(200);
    const json = await call('POST', '/v2/scrape', keyB, {
      url: `${siteUrl}/b`,
      maxAge: 0,
      formats: [{ type: 'json', prompt: 'the price' }],
    });
    expect(json.status).toBe(200);
    expect(json.json.data.json).toEqual({ price: 12 });
    const creditsA = plain.json.data.metadata.creditsUsed as number;
    const creditsB = json.json.data.metadata.creditsUsed as number;
    expect(creditsA).toBeGreaterThan(0);
    expect(creditsB).toBeGreaterThan(creditsA);

    const v2 = new Firecrawl({ apiKey: keyA, apiUrl: tabhive.url });
    const total = await v2.getCreditUsageHistorical();
    expect(total.periods).toEqual([
      expect.objectContaining({ startDate: monthStart(), creditsUsed: creditsA + creditsB }),
    ]);
    expect(total.periods[0]?.apiKey).toBeUndefined();
    // The month's last millisecond, UTC.
    const end = new Date(total.periods[0]!.endDate!);
    expect(new Date(end.getTime() + 1).getUTCDate()).toBe(1);

    const byKey = await v2.getCreditUsageHistorical(true);
    expect(byKey.periods).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ apiKey: masked(keyA), creditsUsed: creditsA }),
        expect.objectContaining({ apiKey: masked(keyB), creditsUsed: creditsB }),
      ]),
    );
    expect(byKey.periods).toHaveLength(2);
    // No key is ever given away whole.
    expect(JSON.stringify(byKey)).not.toContain(keyA.slice(3, 12));

    const tokens = await v2.getTokenUsageHistorical(true);
    expect(tokens.periods).toEqual([
      expect.objectContaining({ apiKey: masked(keyB), tokensUsed: FAKE_TOKENS_PER_ANSWER }),
    ]);
    const v1 = new FirecrawlAppV1({ apiKey: keyB, apiUrl: tabhive.url });
    expect(await v1.getTokenUsageHistorical()).toEqual({
      success: true,
      periods: [expect.objectContaining({ startDate: monthStart(), tokensUsed: FAKE_TOKENS_PER_ANSWER })],
    });
    expect(await v1.getCreditUsageHistorical(true)).toMatchObject({ success: true, periods: byKey.periods });

    // The balance and the history agree.
    const balance = await call('GET', '/admin/v1/teams/history', ADMIN_KEY);
    expect(balance.json.data.creditsUsed).toBe(creditsA + creditsB);
  });

  it('counts pages waiting for a browser and the latest success in the queue status', async () => {
    const started = await call('POST', '/v2/batch/scrape', keyA, {
      urls: [`${siteUrl}/q1`, `${siteUrl}/q2`, `${siteUrl}/q3`],
    });
    expect(started.status).toBe(200);
    const v2 = new Firecrawl({ apiKey: keyA, apiUrl: tabhive.url });
    // No browser is connected, so the batch's pages wait in the queue.
    const status = await v2.getQueueStatus();
    expect(status).toMatchObject({
      success: true,
      jobsInQueue: 3,
      activeJobsInQueue: 0,
      waitingJobsInQueue: 3,
      maxConcurrency: 3,
    });
    // The scrapes of the first test succeeded within the last day.
    expect(Date.now() - Date.parse(status.mostRecentSuccess ?? '')).toBeLessThan(10 * 60_000);
    const v1 = await call('GET', '/v1/team/queue-status', keyA);
    expect(v1.json).toMatchObject({ success: true, waitingJobsInQueue: 3 });
    expect((await call('DELETE', `/v2/batch/scrape/${started.json.id}`, keyA)).status).toBe(200);
    expect((await v2.getQueueStatus()).waitingJobsInQueue).toBe(0);
  });

  it('refuses a byApiKey that is not true or false, and another team sees only its own usage', async () => {
    const bad = await call('GET', '/v2/team/credit-usage/historical?byApiKey=yes', keyA);
    expect(bad.status).toBe(400);
    expect(bad.json.success).toBe(false);
    await call('POST', '/admin/v1/teams', ADMIN_KEY, { id: 'other' });
    const otherKey = (await call('POST', '/admin/v1/teams/other/keys', ADMIN_KEY, { label: 'o' })).json.data
      .apiKey as string;
    const other = await call('GET', '/v2/team/credit-usage/historical?byApiKey=true', otherKey);
    expect(other.json).toEqual({ success: true, periods: [] });
    const queue = await call('GET', '/v2/team/queue-status', otherKey);
    expect(queue.json).toMatchObject({ jobsInQueue: 0, mostRecentSuccess: null });
  });
});
