import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { freePort } from '../helpers/free-port';
import { waitUntil } from '../helpers/start-test-tabhive';

/**
 * The server log as an operator's collector reads it: the server started as `npm start` starts
 * it (main.ts, its configuration from the environment) with LOG_FORMAT=json, one browser, and
 * private networks blocked but for the crawl site's name.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API_KEY = 'fc-1095000000000000000000000000000c';

type Line = Record<string, unknown> & { level: string; msg: string; time: string };

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let dataDir: string;
let child: ChildProcess;
let url: string;
let stderr = '';
const lines = (): Line[] =>
  stderr
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);

beforeAll(async () => {
  site = await startCrawlSite();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-logs-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_KEY,
      DATA_DIR: dataDir,
      BROWSERS: '1',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      ALLOW_PRIVATE_NETWORKS: 'false',
      ALLOWED_PRIVATE_HOSTS: 'site.localhost',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited:\n${stderr}`);
      const health = await fetch(`${url}/health`)
        .then((response) => response.json() as Promise<{ browsers: number }>)
        .catch(() => undefined);
      return health?.browsers === 1;
    },
    40_000,
    'one browser in /health',
  );
});
afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  await site?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, pathname: string, body?: unknown) =>
  fetch(`${url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('the server log with LOG_FORMAT=json', () => {
  it('says at start which network policy is in force, and that the browser connected', () => {
    const policy = lines().find((line) => line.msg === 'network policy');
    expect(policy).toMatchObject({
      level: 'info',
      privateNetworks: 'blocked',
      allowedPrivateHosts: ['site.localhost'],
      store: 'embedded',
      browsers: 1,
      httpFastPath: true,
    });
    expect(lines().find((line) => line.msg === 'browser connected')).toMatchObject({
      level: 'info',
      browserClass: 'basic',
      browsers: 1,
      browserId: expect.any(String),
    });
  });

  it('a crawl: its request line, and its started and completed lines with its job id', async () => {
    const started = await api('POST', '/v2/crawl', { url: site.url('/docs/'), limit: 4, sitemap: 'skip' });
    expect(started.status).toBe(200);
    const requestId = started.headers.get('x-request-id');
    const jobId = ((await started.json()) as { id: string }).id;
    let status: { status: string; completed: number; creditsUsed: number } | undefined;
    await waitUntil(
      async () => {
        status = (await (await api('GET', `/v2/crawl/${jobId}`)).json()) as typeof status;
        return status?.status === 'completed';
      },
      30_000,
      'the crawl to complete',
    );
    expect(status?.completed).toBe(4);
    await waitUntil(() => lines().some((line) => line.msg === 'job completed'), 5_000, 'the completed line');

    const requestLine = lines().find((line) => line.msg === 'request' && line.requestId === requestId);
    expect(requestLine).toMatchObject({
      level: 'info',
      method: 'POST',
      path: '/v2/crawl',
      status: 200,
      teamId: 'default',
      durationMs: expect.any(Number),
    });
    // The job's lines tie back to the request that started it.
    expect(lines().find((line) => line.msg === 'job started')).toMatchObject({
      jobId,
      requestId,
      teamId: 'default',
      kind: 'crawl',
      url: site.url('/docs/'),
      limit: 4,
    });
    expect(lines().find((line) => line.msg === 'job completed')).toMatchObject({
      jobId,
      teamId: 'default',
      kind: 'crawl',
      pages: 4,
      failedPages: 0,
      creditsUsed: status?.creditsUsed,
    });
  });

  it('a refused scrape: the request line carries its code; no key is ever in the log', async () => {
    const refused = await api('POST', '/v2/scrape', { url: 'http://127.0.0.1:9/' });
    expect(refused.status).toBe(403);
    const requestId = refused.headers.get('x-request-id');
    await waitUntil(
      () => lines().some((line) => line.requestId === requestId && line.msg === 'request'),
      5_000,
      'the request line',
    );
    const line = lines().find(
      (candidate) => candidate.requestId === requestId && candidate.msg === 'request',
    );
    expect(line).toMatchObject({ status: 403, code: 'URL_BLOCKED', path: '/v2/scrape' });
    expect(stderr).not.toContain(API_KEY);
  });

  it('every line of the log is one JSON object, and SIGTERM ends with the shutdown line', async () => {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    const all = lines();
    expect(all.length).toBeGreaterThan(5);
    for (const line of all) {
      expect(['debug', 'info', 'warn', 'error']).toContain(line.level);
      expect(new Date(line.time).toISOString()).toBe(line.time);
    }
    expect(all.find((line) => line.msg === 'shutting down')).toMatchObject({ signal: 'SIGTERM' });
  });
});
