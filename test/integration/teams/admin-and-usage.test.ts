import Firecrawl, { FirecrawlAppV1 } from 'firecrawl';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive, type RunningTabhive } from '../../../server/start-tabhive';
import { waitUntil } from '../../helpers/start-test-tabhive';

const ADMIN_KEY = 'admin-key-for-tests-0123456789';
const DEFAULT_KEY = 'fc-default-key-for-admin-tests';

async function start(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-admin-'));
  const tabhive = await startTabhive({
    config: loadConfig({ PORT: '0', BROWSERS: '0', DATA_DIR: dataDir, API_KEY: DEFAULT_KEY, ...env }),
    server: createServer(),
    log: createLog({ quiet: true }),
  });
  return {
    tabhive,
    async stop() {
      await tabhive.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Answer = { status: number; headers: Headers; json: any };

async function call(
  base: string,
  method: string,
  pathname: string,
  key: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text === '' ? undefined : JSON.parse(text),
  };
}

describe('the admin API and the usage endpoints', () => {
  let server: Awaited<ReturnType<typeof start>>;
  let tabhive: RunningTabhive;
  const admin = (method: string, pathname: string, body?: unknown) =>
    call(tabhive.url, method, `/admin/v1${pathname}`, ADMIN_KEY, body);

  beforeAll(async () => {
    server = await start({ ADMIN_API_KEY: ADMIN_KEY, TEAM_CONCURRENCY: '7' });
    tabhive = server.tabhive;
  });
  afterAll(() => server?.stop());

  it('is off without ADMIN_API_KEY and refuses other keys', async () => {
    const off = await start({});
    try {
      expect((await call(off.tabhive.url, 'GET', '/admin/v1/teams', ADMIN_KEY)).status).toBe(404);
    } finally {
      await off.stop();
    }
    expect(await admin('GET', '/teams').then((answer) => answer.status)).toBe(200);
    const wrong = await call(tabhive.url, 'GET', '/admin/v1/teams', DEFAULT_KEY);
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ success: false, error: 'Unauthorized: Invalid admin key' });
    expect((await call(tabhive.url, 'GET', '/admin/v1/teams', '')).status).toBe(401);
  });

  it('creates teams and keys, sets allowances, and revokes keys within seconds', async () => {
    const created = await admin('POST', '/teams', { id: 'acme', name: 'Acme Inc.', creditAllowance: 25 });
    expect(created.json.data).toMatchObject({
      id: 'acme',
      name: 'Acme Inc.',
      creditAllowance: 25,
      remainingCredits: 25,
    });
    expect((await admin('POST', '/teams', { id: 'acme' })).status).toBe(409);
    expect((await admin('POST', '/teams', { id: 'Not A Name!' })).status).toBe(400);
    const polluting = await fetch(`${tabhive.url}/admin/v1/teams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: '{"id":"x","__proto__":{"admin":true}}',
    });
    expect(polluting.status).toBe(400);
    expect((await admin('GET', '/teams/nobody')).status).toBe(404);

    const key = await admin('POST', '/teams/acme/keys', { label: 'ci' });
    expect(key.json.data).toMatchObject({ teamId: 'acme', label: 'ci' });
    const apiKey = key.json.data.apiKey as string;
    expect((await admin('GET', '/teams/acme/keys')).json.data).toEqual([
      expect.objectContaining({ keyId: key.json.data.keyId, label: 'ci' }),
    ]);
    expect(JSON.stringify((await admin('GET', '/keys')).json)).not.toContain(apiKey);

    const usage = () => call(tabhive.url, 'GET', '/v2/team/credit-usage', apiKey);
    expect((await usage()).json).toEqual({
      success: true,
      data: { remainingCredits: 25, planCredits: 25, billingPeriodStart: null, billingPeriodEnd: null },
    });
    expect(
      (await admin('PATCH', '/teams/acme', { creditAllowance: 40, maxConcurrency: 2 })).json.data,
    ).toMatchObject({
      creditAllowance: 40,
      remainingCredits: 40,
      maxConcurrency: 2,
    });
    expect((await admin('PATCH', '/teams/acme', { creditAllowance: -1 })).status).toBe(400);
    await waitUntil(
      async () => (await usage()).json.data.remainingCredits === 40,
      5_000,
      'the new allowance',
    );
    expect((await call(tabhive.url, 'GET', '/v2/concurrency-check', apiKey)).json).toEqual({
      success: true,
      concurrency: 0,
      maxConcurrency: 2,
    });

    const revokedAt = Date.now();
    expect((await admin('DELETE', `/keys/${key.json.data.keyId}`)).json.data).toMatchObject({
      teamId: 'acme',
    });
    await waitUntil(async () => (await usage()).status === 401, 5_000, 'the revoked key to stop working');
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    expect((await admin('DELETE', `/keys/${key.json.data.keyId}`)).status).toBe(404);
  });

  it('tells a team out of credits what this server’s operator runs to give it more, and that works', async () => {
    await admin('POST', '/teams', { id: 'spent', creditAllowance: 0 });
    const apiKey = (await admin('POST', '/teams/spent/keys', { label: 'ci' })).json.data.apiKey as string;
    const batch = () =>
      call(tabhive.url, 'POST', '/v2/batch/scrape', apiKey, { urls: ['https://example.com/a'] });
    const refused = await batch();
    expect(refused.status).toBe(402);
    const message = refused.json.error as string;
    // Firecrawl's first sentence, which clients match; no other company's pricing page.
    expect(message).toMatch(/^Insufficient credits to perform this request\./);
    expect(message).not.toMatch(/firecrawl\.dev|pricing|upgrade/i);
    expect(message).toContain('`npm run keys -- team set spent --allowance <credits>`');
    // The admin route it names, called as it says.
    const route = /PATCH \/admin\/v1(\/teams\/\S+) with (\{[^}]*\})/.exec(message);
    expect(route).not.toBeNull();
    const raised = await admin('PATCH', route![1]!, JSON.parse(route![2]!.replace('<credits>', '3')));
    expect(raised.json.data).toMatchObject({ id: 'spent', creditAllowance: 3, remainingCredits: 3 });
    await waitUntil(async () => (await batch()).status === 200, 5_000, 'the raised allowance');
  });

  it('answers the usage endpoints in the shapes the SDKs parse', async () => {
    const v2 = new Firecrawl({ apiKey: DEFAULT_KEY, apiUrl: tabhive.url });
    // The SDK turns `planCredits: null` into undefined.
    expect(await v2.getCreditUsage()).toMatchObject({
      remainingCredits: 99_999_999,
      billingPeriodStart: null,
      billingPeriodEnd: null,
    });
    expect(await v2.getTokenUsage()).toMatchObject({ remainingTokens: 99_999_999 });
    expect(await v2.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 7 });
    const v1 = new FirecrawlAppV1({ apiKey: DEFAULT_KEY, apiUrl: tabhive.url });
    expect(await v1.getCreditUsage()).toMatchObject({
      success: true,
      data: { remaining_credits: 99_999_999 },
    });
    expect(await v1.getTokenUsage()).toMatchObject({ success: true, data: { remaining_tokens: 99_999_999 } });
    expect((await call(tabhive.url, 'GET', '/v1/concurrency-check', DEFAULT_KEY)).json).toEqual({
      success: true,
      concurrency: 0,
      maxConcurrency: 7,
    });
  });

  it('limits a team’s requests per minute with 429 and Retry-After', async () => {
    await admin('POST', '/teams', { id: 'limited', rateLimitPerMinute: 5 });
    const apiKey = (await admin('POST', '/teams/limited/keys', {})).json.data.apiKey as string;
    // Not at the edge of a minute: the whole burst falls into one window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(tabhive.url, 'POST', '/v2/scrape', apiKey, { url: 'not a url at all' }),
      ),
    );
    const limited = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(5);
    expect(limited).toHaveLength(5);
    for (const answer of limited) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(answer.json).toMatchObject({ success: false, code: 'RATE_LIMIT_EXCEEDED' });
      expect(answer.json.error).toMatch(/^Rate limit exceeded/);
    }
    // Status reads do not count, and other teams are not affected.
    expect((await call(tabhive.url, 'GET', '/v2/team/credit-usage', apiKey)).status).toBe(200);
    expect((await call(tabhive.url, 'POST', '/v2/scrape', DEFAULT_KEY, { url: 'not a url' })).status).toBe(
      400,
    );
  });
});
