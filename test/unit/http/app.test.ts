import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { errors } from '../../../server/platform/errors/errors';
import { silentLog } from '../../../server/platform/log/log';
import type { Scraper } from '../../../server/scrape/types/scraper';
import type { Database } from '../../../server/platform/store/database';
import { createEmbeddedDatabase } from '../../../server/platform/store/embedded/create-embedded-database';
import { StoreUnavailableError } from '../../../server/platform/store/database';
import { createResultStore } from '../../../server/platform/store/stores/result-store';
import { serveApp } from '../../helpers/serve-app';

const API_KEY = 'fc-0123456789abcdef0123456789abcdef';
const received: ScrapeRequestV2[] = [];
let behaviour: 'ok' | 'crash' | 'timeout' | 'store-down' = 'ok';

const scraper: Scraper = {
  async scrape(request) {
    received.push(request);
    if (behaviour === 'crash') throw new Error('secret internal detail at /srv/tabhive');
    if (behaviour === 'timeout') throw errors.scrapeTimeout();
    if (behaviour === 'store-down') throw new StoreUnavailableError('connection refused');
    return {
      markdown: '# Hello',
      metadata: {
        sourceURL: request.url.raw,
        url: request.url.url,
        statusCode: 200,
        scrapeId: '5e1b3a70-0000-4000-8000-000000000000',
        creditsUsed: 1,
        proxyUsed: 'basic',
      },
    };
  },
};

let api: { url: string; close(): Promise<void> };
let database: Database;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-app-'));
  database = await createEmbeddedDatabase({ dir, log: silentLog });
  const app = createApp({
    log: silentLog,
    keyring: createStaticKeyring([{ apiKey: API_KEY, team: DEFAULT_TEAM }]),
    scraper,
    results: createResultStore(database),
    connectedBrowsers: () => 3,
    storeKind: 'embedded',
  });
  api = await serveApp(app);
});
afterAll(async () => {
  await api.close();
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('liveness', () => {
  it('answers GET /health without auth, per the operating contract', async () => {
    const response = await fetch(`${api.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, browsers: 3, store: 'embedded' });
  });

  it('answers GET / with plain text', async () => {
    const response = await fetch(`${api.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});

describe('authentication', () => {
  const body = JSON.stringify({ url: 'http://example.com' });

  it('answers 401 Unauthorized without an Authorization header', async () => {
    const response = await fetch(`${api.url}/v2/scrape`, { method: 'POST', body });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Unauthorized' });
  });

  it('answers 401 Token missing for a bare Bearer', async () => {
    const response = await post('/v2/scrape', body, { authorization: 'Bearer ' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Unauthorized: Token missing' });
  });

  it('says the scheme is missing when the header holds the key alone', async () => {
    const response = await post('/v2/scrape', body, { authorization: API_KEY });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      success: false,
      error: 'Unauthorized: the Authorization header has no scheme; send "Authorization: Bearer <key>"',
    });
  });

  it('answers 401 Token missing for another scheme with nothing after it', async () => {
    const response = await post('/v2/scrape', body, { authorization: 'basic' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Unauthorized: Token missing' });
  });

  it('answers 401 Invalid token for an unknown key', async () => {
    const response = await post('/v2/scrape', body, {
      authorization: 'Bearer fc-ffffffffffffffffffffffffffffffff',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
  });
});

describe('POST /v2/scrape input handling', () => {
  it('passes the parsed request, with defaults, to the scraper', async () => {
    behaviour = 'ok';
    const response = await post(
      '/v2/scrape',
      JSON.stringify({ url: 'example.com/a', formats: ['markdown', 'links'] }),
    );
    expect(response.status).toBe(200);
    const json = await response.json();
    expect(json.success).toBe(true);
    expect(json.data.markdown).toBe('# Hello');
    expect(json.scrape_id).toBeUndefined();
    const request = received.at(-1);
    expect(request?.url).toEqual({ raw: 'example.com/a', url: 'http://example.com/a' });
    expect(request?.onlyMainContent).toBe(true);
    expect(request?.formats.map((format) => format.type)).toEqual(['markdown', 'links']);
  });

  it('answers GET /v2/scrape/:id with 404 for an unknown id', async () => {
    const response = await fetch(`${api.url}/v2/scrape/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: 'Job not found.' });
  });

  it('adds scrape_id for the website client', async () => {
    const response = await post(
      '/v2/scrape',
      JSON.stringify({ url: 'http://example.com', origin: 'website' }),
    );
    expect((await response.json()).scrape_id).toBe('5e1b3a70-0000-4000-8000-000000000000');
  });

  it('accepts loopback targets at the schema level (the URL policy decides later)', async () => {
    const response = await post('/v2/scrape', JSON.stringify({ url: 'http://127.0.0.1:8080/page' }));
    expect(response.status).toBe(200);
  });

  it('answers 400 in Firecrawl shape for an unknown format', async () => {
    const response = await post(
      '/v2/scrape',
      JSON.stringify({ url: 'http://example.com', formats: ['pdfs'] }),
    );
    expect(response.status).toBe(400);
    const json = await response.json();
    expect(json).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: expect.stringMatching(
        /^Bad Request: formats\[0\]: 'pdfs' is not a format; expected one of markdown, html/,
      ),
    });
    expect(Array.isArray(json.details)).toBe(true);
    expect(json.details[0].path).toEqual(['formats', 0, 'type']);
  });

  it('says what is wrong in the 400 message and keeps the issues in details', async () => {
    const answer = async (body: unknown) => {
      const response = await post('/v2/scrape', JSON.stringify(body));
      expect(response.status).toBe(400);
      return (await response.json()) as { error: string; details: Array<{ code: string; path: unknown[] }> };
    };
    const typo = await answer({ url: 'http://example.com', formats: ['markdwn'] });
    expect(typo.error).toBe("Bad Request: formats[0]: 'markdwn' is not a format; did you mean 'markdown'?");
    // The issue as zod gave it, for programs (docs/wire-contract.md §1.6).
    expect(typo.details).toEqual([
      expect.objectContaining({ code: 'invalid_union', path: ['formats', 0, 'type'], discriminator: 'type' }),
    ]);
    expect((await answer({ url: 'not a url' })).error).toBe('Bad Request: url: must be a URL');
    expect((await answer({ url: 'http://example.com', timeout: 999_999_999 })).error).toMatch(
      /^Bad Request: timeout: must be at most 300000/,
    );
    expect((await answer({ url: 'http://example.com', proxy: 'stelth' })).error).toBe(
      "Bad Request: proxy: 'stelth' is not a valid proxy; did you mean 'stealth'?",
    );
    expect((await answer({ url: 'http://example.com', bogus: 1 })).error).toBe(
      "Bad Request: unrecognized key 'bogus'",
    );
  });

  it('answers 400 with unrecognized_keys for an unknown field', async () => {
    const response = await post('/v2/scrape', JSON.stringify({ url: 'http://example.com', bogus: 1 }));
    const json = await response.json();
    expect(response.status).toBe(400);
    expect(json.details).toContainEqual(
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['bogus'], path: [] }),
    );
  });

  it('answers 400 when url is missing', async () => {
    const response = await post('/v2/scrape', JSON.stringify({ formats: ['markdown'] }));
    expect(response.status).toBe(400);
    expect((await response.json()).details[0].path).toEqual(['url']);
  });

  it('answers BAD_REQUEST_INVALID_JSON for malformed JSON', async () => {
    const response = await post('/v2/scrape', '{"url": "http://example.com",');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      code: 'BAD_REQUEST_INVALID_JSON',
      error: 'Bad request, malformed JSON',
    });
  });

  it('answers 413 for a body over the limit', async () => {
    const response = await post(
      '/v2/scrape',
      JSON.stringify({ url: 'http://example.com', pad: 'x'.repeat(11 * 1024 * 1024) }),
    );
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('reads a JSON body that curl -d sent as a form', async () => {
    const response = await post('/v2/scrape', JSON.stringify({ url: 'http://example.com/curl' }), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(response.status).toBe(200);
    expect(received.at(-1)?.url.raw).toBe('http://example.com/curl');
  });

  it('answers 415 for a body that is neither JSON nor a form', async () => {
    const response = await post('/v2/scrape', 'url=x', { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
  });

  it('renders typed errors from below, e.g. 408 SCRAPE_TIMEOUT', async () => {
    behaviour = 'timeout';
    const response = await post('/v2/scrape', JSON.stringify({ url: 'http://example.com' }));
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({
      success: false,
      code: 'SCRAPE_TIMEOUT',
      error: 'Scrape timed out',
    });
  });

  it('answers 503 STORE_UNAVAILABLE with Retry-After while the database is down', async () => {
    behaviour = 'store-down';
    const response = await post('/v2/scrape', JSON.stringify({ url: 'http://example.com' }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await response.json()).code).toBe('STORE_UNAVAILABLE');
    behaviour = 'ok';
  });

  it('answers 500 UNKNOWN_ERROR without internals when something breaks', async () => {
    behaviour = 'crash';
    const response = await post('/v2/scrape', JSON.stringify({ url: 'http://example.com' }));
    expect(response.status).toBe(500);
    const json = await response.json();
    expect(json).toMatchObject({ success: false, code: 'UNKNOWN_ERROR' });
    expect(json.error).toMatch(/exception ID is [0-9a-f-]{36}/);
    expect(JSON.stringify(json)).not.toContain('secret');
    behaviour = 'ok';
    expect((await post('/v2/scrape', JSON.stringify({ url: 'http://example.com' }))).status).toBe(200);
  });
});

describe('routing', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const response = await fetch(`${api.url}/v2/nothing-here`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: 'Not found' });
  });

  it('answers CORS preflights for any origin', async () => {
    const response = await fetch(`${api.url}/v2/scrape`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});
