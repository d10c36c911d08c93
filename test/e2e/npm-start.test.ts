import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_BUILD } from '../../scripts/build-inputs.mjs';
import { RENDERED_MESSAGE, startFixtureSite } from '../helpers/fixture-site';
import { freePort } from '../helpers/free-port';
import { waitUntil } from '../helpers/start-test-tabhive';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API_KEY = 'fc-5ta7e0000000000000000000000000000';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let dataDir: string;

beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-start-'));
});
afterAll(async () => {
  await site?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start, as a user runs it', () => {
  it('listens, gets a browser, scrapes, refuses unauthenticated calls, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    // `npm start` runs the built server (built-server.test.ts starts that one); this runs the same
    // entry point from its sources with tsx, in its own process group.
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        API_KEY,
        ALLOW_PRIVATE_NETWORKS: 'true',
        DATA_DIR: dataDir,
        BROWSERS: '1',
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
      await waitUntil(() => stdout.includes('Tabhive listening on'), 20_000, 'the listening line');
      expect(stdout).toContain(`Tabhive listening on http://127.0.0.1:${port}`);
      await waitUntil(() => stdout.includes('Ready:'), 30_000, 'the ready line');
      expect(stdout).toContain(`Console: http://127.0.0.1:${port}/console\nReady: 1 browser connected.\n`);
      const startedAt = Date.now();
      await waitUntil(
        async () => {
          const health = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.json());
          return health.browsers === 1;
        },
        15_000,
        'one browser in /health',
      );
      expect(Date.now() - startedAt).toBeLessThan(15_000);

      const scrape = await fetch(`http://127.0.0.1:${port}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.url('/js-rendered.html') }),
      });
      expect(scrape.status).toBe(200);
      expect((await scrape.json()).data.markdown).toContain(RENDERED_MESSAGE);

      const anonymous = await fetch(`http://127.0.0.1:${port}/v2/scrape`, {
        method: 'POST',
        body: JSON.stringify({ url: site.url('/') }),
      });
      expect(anonymous.status).toBe(401);

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
});

/** A command of the checkout run as a person runs it, in its own process group, its output kept. */
function run(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  /** Both streams as they came, for counting lines. */
  let both = '';
  child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (both += chunk.toString())));
  child.stderr.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), (both += chunk.toString())));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** The lines printed before the first line containing `text`. */
    linesBefore: (text: string) => both.slice(0, both.indexOf(text)).split('\n').length - 1,
    async stop() {
      if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGTERM');
      return exited;
    },
    kill() {
      if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGKILL');
    },
  };
}

const launchedBrowsers = (stderr: string) =>
  [...stderr.matchAll(/browser launched \{"slot":\d+,"pid":(\d+)\}/g)].map((m) => Number(m[1]));
const mtimeOf = (file: string) => statSync(path.join(ROOT, file)).mtimeMs;
/** What `npm start` records of the extension's last build (scripts/build-inputs.mjs). */
const EXTENSION_RECORD = path.join(ROOT, EXTENSION_BUILD.record);

describe('npm start, twice, as a newcomer runs it', () => {
  it('says a few lines, refuses a second start on the same port and data folder before building or launching, and builds nothing the next time', async () => {
    const port = await freePort();
    // A data folder of its own: the first start generates a key there.
    const env = { PORT: String(port), DATA_DIR: path.join(dataDir, 'twice'), BROWSERS: '1' };
    const first = run('npm', ['start'], env);
    const others: Array<ReturnType<typeof run>> = [];
    /** The first start's server process, which holds the data folder. */
    let holder = 0;
    try {
      // The first start may build (the extension was just built by `npm run build`, another way).
      await waitUntil(() => first.stdout().includes('Ready:'), 120_000, `the ready line (${first.stderr()})`);
      expect(first.stdout()).toContain(`Tabhive listening on http://127.0.0.1:${port}\n`);
      expect(first.stdout()).toContain('Generated an API key for the default team');
      expect(first.stdout()).toContain(
        `Console: http://127.0.0.1:${port}/console\nReady: 1 browser connected.\n`,
      );
      // npm's 4-line banner, at most 2 lines of building, 3 log lines and 5 of its own.
      expect(first.linesBefore('Ready:')).toBeLessThanOrEqual(14);
      expect(first.stdout()).not.toContain('WXT');
      expect(first.stdout() + first.stderr()).not.toContain('[EVAL]');

      // A second start on the same port and data folder, with a build to do (no record of the last
      // one): it says what to do and stops, having built nothing.
      const record = readFileSync(EXTENSION_RECORD, 'utf8');
      const manifestBuiltAt = mtimeOf('.output/chrome-mv3/manifest.json');
      const serverBuiltAt = mtimeOf('.output/server/main.mjs');
      rmSync(EXTENSION_RECORD);
      try {
        const second = run('npm', ['start'], env);
        others.push(second);
        expect(await second.exited).not.toBe(0);
        expect(second.stderr()).toContain(
          `Tabhive cannot start: port ${port} on 127.0.0.1 is in use (an earlier Tabhive still running?).\n` +
            `  Stop the process that has it, or start on another port: PORT=${port + 1} npm start\n`,
        );
        holder = Number(/data folder \S+ is in use by process (\d+)/.exec(second.stderr())?.[1]);
        expect(() => process.kill(holder, 0)).not.toThrow();
        expect(second.stderr()).toContain(
          `Stop process ${holder} (kill ${holder}), or start with another data folder`,
        );
        expect(second.stdout()).not.toContain('Building');
        expect(mtimeOf('.output/chrome-mv3/manifest.json')).toBe(manifestBuiltAt);
        expect(mtimeOf('.output/server/main.mjs')).toBe(serverBuiltAt);
      } finally {
        writeFileSync(EXTENSION_RECORD, record);
      }

      // The server run another way (not through npm start) checks the same, before it launches a browser.
      const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
      const sameFolder = run(tsx, ['server/main.ts'], { ...env, PORT: String(await freePort()) });
      others.push(sameFolder);
      expect(await sameFolder.exited).toBe(1);
      expect(sameFolder.stderr()).toMatch(/data folder \S+ is in use by process \d+/);
      expect(launchedBrowsers(sameFolder.stderr())).toEqual([]);
      const otherFolder = await mkdtemp(path.join(os.tmpdir(), 'tabhive-start-other-'));
      try {
        const samePort = run(tsx, ['server/main.ts'], { ...env, DATA_DIR: otherFolder });
        others.push(samePort);
        expect(await samePort.exited).toBe(1);
        expect(samePort.stderr()).toContain(`port ${port} on 127.0.0.1 is in use`);
        expect(samePort.stderr()).toContain(`PORT=${port + 1} npm start`);
        expect(launchedBrowsers(samePort.stderr())).toEqual([]);
      } finally {
        await rm(otherFolder, { recursive: true, force: true });
      }

      // Stopped as Ctrl-C stops it: the server, then npm after it.
      const firstBrowsers = launchedBrowsers(first.stderr());
      expect(firstBrowsers).toHaveLength(1);
      process.kill(holder, 'SIGINT');
      expect(await first.exited).toBe(0);
      for (const pid of [holder, ...firstBrowsers]) expect(() => process.kill(pid, 0)).toThrow();

      // Nothing changed since: nothing is built, and a few lines come before the ready line.
      const third = run('npm', ['start'], env);
      others.push(third);
      await waitUntil(() => third.stdout().includes('Ready:'), 60_000, `the ready line (${third.stderr()})`);
      expect(third.stdout()).not.toContain('Building');
      expect(third.stdout()).not.toContain('Generated an API key');
      expect(third.linesBefore('Ready:')).toBeLessThanOrEqual(10);
      await third.stop();
    } finally {
      first.kill();
      for (const other of others) other.kill();
    }
  });
});
