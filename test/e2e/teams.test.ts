import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { cacheKey, normalizeCacheUrl } from '../../server/scrape/capture/cache-key';
import { ScrapeRequestV2 } from '../../shared/api/v2/scrape-request';
import { waitUntil } from '../helpers/start-test-tabhive';
import { useSiteAndTabhive } from '../helpers/use-site-and-tabhive';

const env = useSiteAndTabhive();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Answer = { status: number; json: any };

async function call(method: string, pathname: string, key: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${env.tabhive.url}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

async function newTeam(id: string, settings: { creditAllowance?: number; maxConcurrency?: number } = {}) {
  const { stores } = env.tabhive.tabhive;
  await stores.teams.create({ id, ...settings });
  return (await stores.apiKeys.create({ teamId: id, label: 'e2e' })).apiKey;
}

/** The close code and reason a status WebSocket ends with. */
function socketClose(
  pathname: string,
  key: string,
): Promise<{ code: number; reason: string; messages: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${env.tabhive.url.replace('http', 'ws')}${pathname}`, key);
    let messages = 0;
    socket.on('message', () => (messages += 1));
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString(), messages }));
    socket.on('error', reject);
  });
}

describe('teams', () => {
  it('never shows one team’s jobs, documents, errors or team-scoped cache entries to another', async () => {
    const a = env.tabhive.apiKey;
    const b = await newTeam('team-b');
    const { site } = env;

    const scraped = await call('POST', '/v2/scrape', a, { url: site.url('/') });
    expect(scraped.status).toBe(200);
    const scrapeId = scraped.json.data.metadata.scrapeId as string;
    const crawl = await call('POST', '/v2/crawl', a, { url: site.url('/'), limit: 2 });
    const batch = await call('POST', '/v1/batch/scrape', a, {
      urls: [site.url('/'), site.url('/status/404')],
    });
    expect([crawl.status, batch.status]).toEqual([200, 200]);
    const crawlId = crawl.json.id as string;
    const batchId = batch.json.id as string;
    for (const path of [`/v2/crawl/${crawlId}`, `/v2/batch/scrape/${batchId}`]) {
      await waitUntil(async () => (await call('GET', path, a)).json.status === 'completed', 60_000, path);
    }

    // Team A sees its own things.
    expect((await call('GET', `/v2/scrape/${scrapeId}`, a)).status).toBe(200);
    expect((await call('GET', `/v2/crawl/${crawlId}/errors`, a)).status).toBe(200);
    expect((await call('GET', '/v2/crawl/ongoing', a)).status).toBe(200);

    // Team B gets Firecrawl's "not found" for every one of them, as if they did not exist.
    const notFound = [
      `/v2/scrape/${scrapeId}`,
      `/v1/scrape/${scrapeId}`,
      `/v2/crawl/${crawlId}`,
      `/v1/crawl/${crawlId}`,
      `/v2/crawl/${batchId}`,
      `/v2/batch/scrape/${batchId}`,
      `/v1/batch/scrape/${batchId}`,
      `/v2/crawl/${crawlId}/errors`,
      `/v1/crawl/${crawlId}/errors`,
      `/v2/batch/scrape/${batchId}/errors`,
      `/v1/batch/scrape/${batchId}/errors`,
    ];
    for (const path of notFound) {
      const answer = await call('GET', path, b);
      expect(answer.status, path).toBe(404);
      expect(answer.json.success, path).toBe(false);
      expect(JSON.stringify(answer.json), path).not.toContain(site.url('/'));
    }
    expect((await call('DELETE', `/v2/crawl/${crawlId}`, b)).json).toEqual({ error: 'Job not found' });
    expect((await call('DELETE', `/v1/batch/scrape/${batchId}`, b)).status).toBe(404);
    expect((await call('GET', `/v2/crawl/${crawlId}`, a)).json.status).toBe('completed');
    expect((await call('GET', '/v2/crawl/ongoing', b)).json.crawls).toEqual([]);
    expect(await socketClose(`/v2/crawl/${crawlId}`, b)).toMatchObject({ code: 1008, messages: 0 });
    // Idempotency keys are per team: B may use the key A used.
    const idempotencyKey = crypto.randomUUID();
    const withKey = (key: string) =>
      fetch(`${env.tabhive.url}/v2/crawl`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'x-idempotency-key': idempotencyKey,
        },
        body: JSON.stringify({ url: site.url('/about.html'), limit: 1 }),
      });
    expect((await withKey(a)).status).toBe(200);
    expect((await withKey(b)).status).toBe(200);

    // A team-scoped cache entry (what a team's logged-in browser captured) is that team's alone.
    const url = site.url('/?cache-scope');
    const secret = 'Team A’s logged-in view';
    await env.tabhive.tabhive.stores.cache.put({
      key: cacheKey(ScrapeRequestV2.parse({ url })),
      scope: 'default',
      url: normalizeCacheUrl(url),
      capture: { url, statusCode: 200, rawHtml: `<p>${secret}</p>`, renderedHtml: `<p>${secret}</p>` },
      now: new Date(),
    });
    const fromA = await call('POST', '/v2/scrape', a, { url });
    expect(fromA.json.data.markdown).toContain(secret);
    expect(fromA.json.data.metadata.cacheState).toBe('hit');
    const fromB = await call('POST', '/v2/scrape', b, { url });
    expect(fromB.status).toBe(200);
    expect(fromB.json.data.metadata.cacheState).toBe('miss');
    expect(JSON.stringify(fromB.json)).not.toContain(secret);
    // B's capture of the public page went to the public cache: B's next scrape is a hit on it.
    const again = await call('POST', '/v2/scrape', b, { url });
    expect(again.json.data.metadata.cacheState).toBe('hit');
    expect(JSON.stringify(again.json)).not.toContain(secret);
  }, 180_000);

  it('spends a small allowance exactly under 50 concurrent scrapes, then answers 402', async () => {
    const ALLOWANCE = 10;
    const key = await newTeam('small', { creditAllowance: ALLOWANCE, maxConcurrency: 100 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('POST', '/v2/scrape', key, { url: env.site.url(`/?credit=${i}`) }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(ALLOWANCE);
    expect(statuses.filter((status) => status === 402)).toHaveLength(50 - ALLOWANCE);
    for (const answer of answers.filter((each) => each.status === 402))
      expect(answer.json).toEqual({
        success: false,
        error: expect.stringMatching(/^Insufficient credits to perform this request/),
      });
    const usage = await call('GET', '/v2/team/credit-usage', key);
    expect(usage.json.data).toMatchObject({ remainingCredits: 0, planCredits: ALLOWANCE });
    const { stores } = env.tabhive.tabhive;
    expect(await stores.teams.get('small')).toMatchObject({ creditsUsed: ALLOWANCE, creditsLeft: 0 });
    expect(await stores.creditLedger.reconcile('small')).toBe(ALLOWANCE);
    expect((await call('POST', '/v2/scrape', key, { url: env.site.url('/?credit=late') })).status).toBe(402);
    expect((await call('POST', '/v2/crawl', key, { url: env.site.url('/'), limit: 5 })).status).toBe(402);
    expect((await call('POST', '/v2/batch/scrape', key, { urls: [env.site.url('/')] })).status).toBe(402);
    // Other teams are not affected.
    expect(
      (await call('POST', '/v2/scrape', env.tabhive.apiKey, { url: env.site.url('/?credit=a') })).status,
    ).toBe(200);
  }, 180_000);

  it('refuses scrapes beyond the team’s concurrency with 429 and Retry-After', async () => {
    const key = await newTeam('narrow', { maxConcurrency: 1 });
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        fetch(`${env.tabhive.url}/v2/scrape`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: env.site.url(`/?narrow=${i}`), waitFor: 500 }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 429, 429, 429]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ success: false, code: 'CONCURRENCY_LIMIT_EXCEEDED' });
  }, 60_000);
});
