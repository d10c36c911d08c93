import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/platform/config';
import { createApiServer } from '../../server/api/http-server/create-api-server';
import { createLog, type Log } from '../../server/platform/log/log';
import { startTabhive } from '../../server/start-tabhive';
import type { LookupFn } from '../../server/platform/url-policy/create-url-policy';

export const TEST_API_KEY = 'fc-7e57a9e0000000000000000000000001';

/** Polls `condition` until it holds or `timeoutMs` passes. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The whole server in this process, as main.ts composes it, on an ephemeral port with its own
 * data directory and `browsers` real headless Chromium processes running the built extension.
 * Pass `dataDir` to keep state across restarts (the caller then removes it).
 */
export async function startTestTabhive({
  browsers = 1,
  stealthBrowsers = 0,
  env = {},
  extraChromeArgs,
  dataDir: givenDataDir,
  webhookRetryDelaysMs,
  lookup,
  log,
  browserRelaunchMs,
}: {
  browsers?: number;
  /** Launched with env STEALTH_PROXY_URL, which the caller must then set. */
  stealthBrowsers?: number;
  env?: Record<string, string>;
  extraChromeArgs?: string[];
  dataDir?: string;
  /** The webhook retry schedule, instead of minutes. */
  webhookRetryDelaysMs?: number[];
  /** DNS for the server's URL policy and egress (browsers take --host-resolver-rules instead). */
  lookup?: LookupFn;
  /** Where the server logs, for tests that assert on what it logged (quiet stderr otherwise). */
  log?: Log;
  /** How long a launched browser may stay disconnected before it is relaunched. */
  browserRelaunchMs?: number;
} = {}) {
  const dataDir = givenDataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'tabhive-test-')));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BROWSERS: String(browsers),
    API_KEY: TEST_API_KEY,
    ALLOW_PRIVATE_NETWORKS: 'true',
    DATA_DIR: dataDir,
    STEALTH_BROWSERS: String(stealthBrowsers),
    ...env,
  });
  const tabhive = await startTabhive({
    config,
    server: createApiServer(),
    log: log ?? createLog({ quiet: true }),
    ...(browserRelaunchMs === undefined ? {} : { browserRelaunchMs }),
    ...(extraChromeArgs === undefined ? {} : { extraChromeArgs }),
    ...(webhookRetryDelaysMs === undefined ? {} : { webhookRetryDelaysMs }),
    ...(lookup === undefined ? {} : { lookup }),
  });
  await waitUntil(
    () =>
      tabhive.hub.connectedBrowsers('basic') >= browsers &&
      tabhive.hub.connectedBrowsers('stealth') >= stealthBrowsers,
    20_000,
    `${browsers} browser(s) and ${stealthBrowsers} stealth browser(s) to connect`,
  );

  return {
    url: tabhive.url,
    apiKey: TEST_API_KEY,
    dataDir,
    tabhive,
    /** GETs with the test key and returns status and parsed body. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
    async get(pathname: string): Promise<{ status: number; json: any }> {
      const response = await fetch(`${tabhive.url}${pathname}`, {
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the signature
      return { status: response.status, json: (await response.json()) as any };
    },
    /** POSTs JSON with the test key and returns status and parsed body. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
    async post(pathname: string, body: unknown): Promise<{ status: number; json: any }> {
      const response = await fetch(`${tabhive.url}${pathname}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the signature
      return { status: response.status, json: (await response.json()) as any };
    },
    async stop() {
      await tabhive.stop();
      if (givenDataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Adds a second team to a test Tabhive and returns an API key of it (for the "another team" checks). */
export async function addOtherTeam(
  tabhive: Awaited<ReturnType<typeof startTestTabhive>>,
  { id = 'team-b', name = 'Team B' }: { id?: string; name?: string } = {},
): Promise<string> {
  const { stores } = tabhive.tabhive;
  await stores.teams.create({ id, name });
  return (await stores.apiKeys.create({ teamId: id, label: 'e2e' })).apiKey;
}
