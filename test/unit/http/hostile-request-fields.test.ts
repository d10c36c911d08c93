import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageTaskSpec } from '../../../shared/protocol/messages';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { silentLog, type Log } from '../../../server/platform/log/log';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createScraper } from '../../../server/scrape/create-scraper';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { serveApp } from '../../helpers/serve-app';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/**
 * Fields the red-team report (L4, L6) sent to the real scrape pipeline: each must be the caller's
 * 400 before any browser work, never a 500 and never a task.
 */
const API_KEY = 'fc-0123456789abcdef0123456789abcdef';
const embedded = useEmbeddedStores();
const tasks: PageTaskSpec[] = [];
const errorLines: string[] = [];
const log: Log = { ...silentLog, error: (message) => void errorLines.push(message) };
let api: { url: string; close(): Promise<void> };

beforeAll(async () => {
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log }),
    results: embedded.stores.results,
    log,
    runTask: async (spec) => {
      tasks.push(spec);
      return { url: spec.url, statusCode: 200, rawHtml: '<p>x</p>', renderedHtml: '<p>x</p>' };
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

async function post(path: string, body: Record<string, unknown>) {
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://example.com/', ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const SELF = { $ref: '#' };
const LOOP = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' };
const EXPLOSION = {
  definitions: Object.fromEntries(
    Array.from({ length: 31 }, (_, i) => [
      `d${i}`,
      i === 30
        ? { type: 'object' }
        : { allOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] },
    ]),
  ),
  $ref: '#/definitions/d0',
};

describe('caller JSON Schemas that cannot be checked safely (L6)', () => {
  const bodies: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ['v2 json format, $ref "#"', '/v2/scrape', { formats: [{ type: 'json', schema: SELF }] }, /refers back/],
    [
      'v2 json format, two $defs naming each other',
      '/v2/scrape',
      { formats: [{ type: 'json', schema: LOOP }] },
      /refers back/,
    ],
    [
      'v2 changeTracking json mode, $ref "#"',
      '/v2/scrape',
      { formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema: SELF }] },
      /refers back/,
    ],
    [
      'v2 json format, allOf of $refs nested 30 deep',
      '/v2/scrape',
      { formats: [{ type: 'json', schema: EXPLOSION }] },
      /more than 10000 schemas/,
    ],
    [
      'v1 jsonOptions, $ref "#"',
      '/v1/scrape',
      { formats: ['json'], jsonOptions: { schema: SELF } },
      /refers back/,
    ],
    [
      'v1 extract, $ref "#"',
      '/v1/scrape',
      { formats: ['extract'], extract: { schema: LOOP } },
      /refers back/,
    ],
  ];

  it.each(bodies)('%s is a 400 before any browser work', async (_name, path, body, reason) => {
    const before = tasks.length;
    const { status, body: answer } = await post(path, body);
    expect(status).toBe(400);
    expect(answer).toMatchObject({ success: false });
    expect(JSON.stringify(answer.details)).toMatch(/Invalid schema/);
    expect(JSON.stringify(answer.details)).toMatch(reason);
    expect(tasks.length).toBe(before);
    expect(errorLines).toEqual([]);
  });

  it('still scrapes with a schema that recurses through its properties', async () => {
    const tree = { type: 'object', properties: { title: { type: 'string' }, child: { $ref: '#' } } };
    const { status, body } = await post('/v2/scrape', { formats: [{ type: 'json', schema: tree }] });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, data: { json: expect.any(Object) } });
  });
});

describe('timeouts past what the server will wait (L4)', () => {
  for (const timeout of [300_001, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
    it(`answers 400 for timeout ${timeout} on v2 and v1 scrape`, async () => {
      for (const path of ['/v2/scrape', '/v1/scrape']) {
        const { status, body } = await post(path, { timeout });
        expect(status, path).toBe(400);
        expect(body.details, path).toEqual([
          expect.objectContaining({
            path: ['timeout'],
            message: 'timeout must be at most 300000 ms (5 minutes)',
          }),
        ]);
      }
    });
  }

  it('accepts the shortest and the longest timeouts, and holds the shortest', async () => {
    // 1 ms is valid, and no scrape keeps it: the answer is Firecrawl's 408, never a 200 after the
    // time the caller gave (scrape-deadline.ts).
    for (const timeout of [1]) {
      const { status, body } = await post('/v2/scrape', { timeout, maxAge: 0 });
      expect({ status, body }, String(timeout)).toEqual({
        status: 408,
        body: { success: false, code: 'SCRAPE_TIMEOUT', error: 'Scrape timed out' },
      });
    }
    const before = tasks.length;
    const { status } = await post('/v2/scrape', { timeout: 300_000, maxAge: 0 });
    expect(status).toBe(200);
    expect(tasks.length).toBe(before + 1);
  });
});
