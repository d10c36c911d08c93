import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERED_MESSAGE, startFixtureSite } from '../helpers/fixture-site';
import { freePort } from '../helpers/free-port';
import { waitUntil } from '../helpers/start-test-tabhive';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API_KEY = 'fc-bu11t000000000000000000000000000';
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};
/** The command `npm start` ends with, `node .output/server/main.mjs`. */
const startCommand = (packageJson.scripts.start?.split('&&').at(-1) ?? '').trim().split(/\s+/);

/** /usr/bin/node when it is an older Node than Tabhive needs (as on the machines this was written on). */
const oldSystemNode = (() => {
  if (!existsSync('/usr/bin/node')) return undefined;
  const version = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout.trim();
  return Number(version.replace(/^v/, '').split('.')[0]) < 22 ? version : undefined;
})();

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let dataDir: string;
/** A build of its own, beside the real one (inside the checkout, where node_modules is found). */
let outDir: string;

beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-built-'));
  outDir = await mkdtemp(path.join(ROOT, '.output/server-test-'));
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', outDir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(build.stderr).toBe('');
  expect(build.status).toBe(0);
});
afterAll(async () => {
  await site?.close();
  await rm(dataDir, { recursive: true, force: true });
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
});

describe('the built server, as npm start runs it', () => {
  it('is the last step of npm start: node with its options on .output/server/main.mjs', () => {
    // Between them, the checks of the port and the data folder, and the builds whose sources changed.
    expect(packageJson.scripts.start).toMatch(
      /^node scripts\/check-node-version\.cjs && node scripts\/prepare-start\.mjs && node /,
    );
    expect(startCommand[0]).toBe('node');
    expect(startCommand.at(-1)).toBe('.output/server/main.mjs');
    expect(packageJson.scripts.bench).toMatch(
      /npm run build:server --silent && tsx bench\/perf\/run-perf-bench\.ts$/,
    );
  });

  it('gets a browser, scrapes through the derivation worker, knows its version, and stops on SIGTERM', async () => {
    const port = await freePort();
    const startedAt = Date.now();
    const child = spawn(process.execPath, [...startCommand.slice(1, -1), path.join(outDir, 'main.mjs')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        API_KEY,
        ALLOW_PRIVATE_NETWORKS: 'true',
        DATA_DIR: dataDir,
        BROWSERS: '1',
        // Every page through the browser and the derivation worker.
        HTTP_FAST_PATH: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    try {
      await waitUntil(
        async () => {
          const health = await fetch(`http://127.0.0.1:${port}/health`)
            .then((response) => response.json() as Promise<{ browsers: number }>)
            .catch(() => undefined);
          return health?.browsers === 1;
        },
        20_000,
        `one browser in /health (stderr: ${stderr})`,
      );
      // Seconds to spare on a loaded machine; the bench measures the real figure.
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      // The line comes once the start has finished, which may be a moment after /health answers.
      await waitUntil(
        () => stdout.includes(`Tabhive listening on http://127.0.0.1:${port}`),
        10_000,
        `the listening line (stdout: ${stdout})`,
      );

      const scrape = await fetch(`http://127.0.0.1:${port}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.url('/js-rendered.html') }),
      });
      expect(scrape.status).toBe(200);
      expect((await scrape.json()).data.markdown).toContain(RENDERED_MESSAGE);

      // Read from package.json next to the sources: the bundle finds the checkout's files.
      const openapi = await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json();
      expect(openapi.info.version).toBe(packageJson.version);

      const browserPids = [...stderr.matchAll(/browser launched \{"slot":\d+,"pid":(\d+)\}/g)].map((m) =>
        Number(m[1]),
      );
      expect(browserPids).toHaveLength(1);
      process.kill(child.pid as number, 'SIGTERM');
      expect(await exited).toBe(0);
      for (const pid of browserPids) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGKILL');
    }
  });

  it.skipIf(oldSystemNode === undefined)(
    'stops an older Node with the version message, before any dependency',
    () => {
      const result = spawnSync('/usr/bin/node', [path.join(outDir, 'main.mjs')], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr.split('\n')[0]).toBe(
        `Tabhive needs Node.js 22 or newer (this is ${oldSystemNode}).`,
      );
    },
  );
});
