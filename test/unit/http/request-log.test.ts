import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { loggedPath } from '../../../server/api/http/request-log';
import { createLog } from '../../../server/platform/log/log';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createScraper } from '../../../server/scrape/create-scraper';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { serveApp } from '../../helpers/serve-app';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/** The request line of the access log, through the real app with the real scrape pipeline. */
const API_KEY = 'fc-5ecre7000000000000000000000000aa';
const WRONG_KEY = 'fc-wr0ng00000000000000000000000bb';
const embedded = useEmbeddedStores();
let written: string[] = [];
const lines = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);
const requestLines = () => lines().filter((line) => line.msg === 'request');
let api: { url: string; close(): Promise<void> };

beforeAll(async () => {
  const log = createLog({
    format: 'json',
    level: 'debug',
    destination: { write: (line) => written.push(line) },
  });
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log }),
    results: embedded.stores.results,
    log,
    runTask: async (spec) => {
      if (spec.url.includes('/down')) throw new TaskError('SCRAPE_TIMEOUT', 'the page did not load in time');
      return { url: spec.url, statusCode: 200, rawHtml: '<p>hello</p>', renderedHtml: '<p>hello</p>' };
    },
    urlPolicy: createUrlPolicy({ allowPrivateNetworks: false, lookup: async () => ['93.184.215.14'] }),
  });
  api = await serveApp(
    createApp({
      log,
      keyring: createStaticKeyring([{ apiKey: API_KEY, team: DEFAULT_TEAM }]),
      scraper,
      results: embedded.stores.results,
      connectedBrowsers: () => 1,
      storeKind: 'embedded',
    }),
  );
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  written = [];
});

const scrape = (url: string, headers: Record<string, string> = {}, query = '') =>
  fetch(`${api.url}/v2/scrape${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ url, formats: ['markdown'] }),
  });

/** The line is written when the response has gone out, a moment after the client read it. */
async function lineFor(requestId: string) {
  for (let i = 0; i < 100; i++) {
    const line = requestLines().find((candidate) => candidate.requestId === requestId);
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no request line for ${requestId}: ${written.join('')}`);
}

describe('the request log', () => {
  it('one line per request: method, path, status, duration, team and the request id it answered with', async () => {
    const response = await scrape('https://example.com/page');
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineFor(requestId);
    expect(line).toMatchObject({
      level: 'info',
      method: 'POST',
      path: '/v2/scrape',
      status: 200,
      teamId: 'default',
    });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(requestLines()).toHaveLength(1);
  });

  it('keeps a sane incoming x-request-id and replaces one that is not a plain token', async () => {
    const kept = await scrape('https://example.com/kept', { 'x-request-id': 'trace-01HZX.abc:9' });
    expect(kept.headers.get('x-request-id')).toBe('trace-01HZX.abc:9');
    await lineFor('trace-01HZX.abc:9');
    const hostile = 'a"b\\n{"level":"error"}';
    const replaced = await scrape('https://example.com/replaced', { 'x-request-id': hostile });
    const id = replaced.headers.get('x-request-id') ?? '';
    expect(id).not.toBe(hostile);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await lineFor(id);
    expect(written.join('')).not.toContain('level\\":\\"error');
  });

  it('never logs the API key, the Authorization header, the query string or the body', async () => {
    const withQueryKey = await scrape(
      'https://example.com/secret-body-url',
      {},
      `?api_key=${API_KEY}&token=t0psecret`,
    );
    await lineFor(withQueryKey.headers.get('x-request-id') ?? '');
    const refused = await fetch(`${api.url}/v2/scrape?key=${WRONG_KEY}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRONG_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/refused' }),
    });
    expect(refused.status).toBe(401);
    const line = await lineFor(refused.headers.get('x-request-id') ?? '');
    expect(line).toMatchObject({ status: 401, path: '/v2/scrape' });
    expect(line).not.toHaveProperty('teamId');
    const all = written.join('');
    for (const secret of [
      API_KEY,
      WRONG_KEY,
      't0psecret',
      'api_key',
      'Bearer',
      'secret-body-url',
      'authorization',
    ])
      expect(all).not.toContain(secret);
  });

  it('a failed scrape: the request line has its error code, and the browser task line its request id', async () => {
    const response = await scrape('https://example.com/down?session=abc123');
    expect(response.status).toBe(408);
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(await lineFor(requestId)).toMatchObject({ status: 408, code: 'SCRAPE_TIMEOUT' });
    const failed = lines().find((line) => line.msg === 'browser task failed');
    expect(failed).toMatchObject({
      level: 'warn',
      requestId,
      teamId: 'default',
      code: 'SCRAPE_TIMEOUT',
      url: 'https://example.com/down',
    });
    expect(written.join('')).not.toContain('abc123');
  });

  it('health polls are debug lines; paths with capability tokens are logged without them', async () => {
    const health = await fetch(`${api.url}/health`);
    const line = await lineFor(health.headers.get('x-request-id') ?? '');
    expect(line).toMatchObject({ level: 'debug', path: '/health', status: 200 });
    expect(loggedPath('/live/lv_0123456789abcdef')).toBe('/live/:token');
    expect(loggedPath('/live/lv_0123456789abcdef/page')).toBe('/live/:token/page');
    expect(loggedPath('/v2/crawl/123')).toBe('/v2/crawl/123');
  });
});
