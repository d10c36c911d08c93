import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive, type RunningTabhive } from '../../../server/start-tabhive';

const API_KEY = 'fc-public-urls-test-key-0001';
const ATTACKER = 'attacker.example';

/** A whole Tabhive without browsers: jobs are accepted, their pages wait (tests store their results). */
async function start(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-public-urls-'));
  const tabhive = await startTabhive({
    config: loadConfig({
      PORT: '0',
      BROWSERS: '0',
      DATA_DIR: dataDir,
      API_KEY,
      ALLOW_PRIVATE_NETWORKS: 'true',
      ...env,
    }),
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

/**
 * A request with the Host header a caller chose (fetch() refuses to set it) and forwarding
 * headers a proxy might add; answers the parsed JSON body.
 */
function call(
  tabhive: RunningTabhive,
  method: string,
  pathname: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const target = new URL(pathname, tabhive.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      target,
      {
        method,
        headers: {
          host: ATTACKER,
          'x-forwarded-host': ATTACKER,
          'x-forwarded-proto': 'https',
          authorization: `Bearer ${API_KEY}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Nothing fetches these: no browser takes the pages. */
const page = (n: number) => `http://127.0.0.1:9/page-${n}.html`;

/** Starts a batch of `count` pages and stores a result for each, as the job runner would. */
async function batchWithResults(tabhive: RunningTabhive, version: 'v1' | 'v2', count: number) {
  const urls = Array.from({ length: count }, (_, i) => page(i));
  const started = await call(tabhive, 'POST', `/${version}/batch/scrape`, { urls });
  expect(started.status).toBe(200);
  const id = String(started.json.id);
  for (const [sequence, url] of urls.entries())
    await tabhive.stores.results.put({
      id: `${id}-${sequence}`,
      teamId: 'default',
      jobId: id,
      sequence,
      document: { markdown: url, metadata: { sourceURL: url, url, statusCode: 200 } },
    });
  return { started, id };
}

describe('absolute URLs in responses, with Host: attacker.example', () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server?.stop());

  it('give jobs’ `url` on the address the server listens on', async () => {
    const { tabhive } = server;
    const submissions = [
      ['/v2/crawl', { url: page(0), limit: 1, sitemap: 'skip' }, '/v2/crawl/'],
      ['/v1/crawl', { url: page(0), limit: 1, ignoreSitemap: true }, '/v1/crawl/'],
      ['/v2/batch/scrape', { urls: [page(0)] }, '/v2/batch/scrape/'],
      ['/v1/batch/scrape', { urls: [page(0)] }, '/v1/batch/scrape/'],
    ] as const;
    for (const [pathname, body, prefix] of submissions) {
      const answer = await call(tabhive, 'POST', pathname, body);
      expect(answer.status, pathname).toBe(200);
      expect(answer.json.url).toBe(`${tabhive.url}${prefix}${String(answer.json.id)}`);
      expect(JSON.stringify(answer.json)).not.toContain(ATTACKER);
    }
    const openapi = await call(tabhive, 'GET', '/openapi.json');
    expect(openapi.json.servers).toEqual([{ url: tabhive.url }]);
  });

  it('give `next` status pages on the address the server listens on', async () => {
    const { tabhive } = server;
    for (const version of ['v1', 'v2'] as const) {
      const { id } = await batchWithResults(tabhive, version, 3);
      const first = await call(tabhive, 'GET', `/${version}/batch/scrape/${id}?limit=1`);
      expect(first.json.next).toBe(`${tabhive.url}/${version}/batch/scrape/${id}?skip=1&limit=1`);
      const crawlPath = await call(tabhive, 'GET', `/${version}/crawl/${id}?skip=1&limit=1`);
      expect(crawlPath.json.next).toBe(`${tabhive.url}/${version}/crawl/${id}?skip=2&limit=1`);
    }
  });
});

describe('absolute URLs in responses, with PUBLIC_URL set', () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    server = await start({ PUBLIC_URL: 'https://scrape.example.com/tabhive/' });
  });
  afterAll(() => server?.stop());

  it('are on PUBLIC_URL, its path kept, whatever Host says', async () => {
    const { tabhive } = server;
    const { started, id } = await batchWithResults(tabhive, 'v2', 2);
    expect(started.json.url).toBe(`https://scrape.example.com/tabhive/v2/batch/scrape/${id}`);
    const first = await call(tabhive, 'GET', `/v2/batch/scrape/${id}?limit=1`);
    expect(first.json.next).toBe(`https://scrape.example.com/tabhive/v2/batch/scrape/${id}?skip=1&limit=1`);
    const openapi = await call(tabhive, 'GET', '/openapi.json');
    expect(openapi.json.servers).toEqual([{ url: 'https://scrape.example.com/tabhive' }]);
  });
});
