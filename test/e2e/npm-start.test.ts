import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
