import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchSite } from './bench-site';

/**
 * Cache-hit throughput of `POST /v2/scrape` alone, as `npm run bench` measures it (one cached page,
 * formats markdown, default maxAge, 8 concurrent callers) but without browsers: the server runs in
 * its own process (`server/main.ts`, BROWSERS=0, HTTP_FAST_PATH on, the embedded store unless
 * MONGODB_URL is set) and the page comes from the bench site on loopback over the fast path.
 *
 *   npx tsx bench/perf/measure-cache-hits.ts [runs=3] [seconds=5]
 *
 * Prints one line per run and the median; the machine is shared, so compare runs of one sitting.
 * TABHIVE_ROOT runs the server of another checkout (an A/B comparison with the same client).
 */
const ROOT = process.env.TABHIVE_ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
const API_KEY = 'fc-bench000000000000000000000000001';
const CALLERS = 8;
const runs = Number(process.argv[2] ?? '3');
const seconds = Number(process.argv[3] ?? '5');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const site = await startBenchSite({ staticPages: 1, scriptPages: 0 });
const dataDir = await mkdtemp(path.join(tmpdir(), 'tabhive-cache-bench-'));
const port = await freePort();
const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    API_KEY,
    BROWSERS: '0',
    HTTP_FAST_PATH: 'true',
    ALLOW_PRIVATE_NETWORKS: 'true',
    MONGODB_URL: process.env.MONGODB_URL ?? '',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;

async function scrape(body: unknown): Promise<{ cacheState?: string }> {
  const response = await fetch(`${base}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: { metadata: { cacheState?: string } } };
  if (!response.ok || json.data === undefined) throw new Error(`${response.status} ${JSON.stringify(json)}`);
  return json.data.metadata;
}

try {
  for (const deadline = Date.now() + 60_000; ;) {
    const ok = await fetch(`${base}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('Tabhive did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const body = { url: `${site.origin}${site.staticPaths[0] ?? '/'}`, formats: ['markdown'] };
  const first = await scrape(body);
  if (first.cacheState !== 'miss') throw new Error(`first scrape: ${JSON.stringify(first)}`);
  // Warm-up: the JIT, the derivation workers, the connections.
  const warmUntil = performance.now() + 1_000;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < warmUntil) await scrape(body);
    }),
  );

  const rates: number[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const load = loadavg()[0] ?? 0;
    const started = performance.now();
    let hits = 0;
    let misses = 0;
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (performance.now() - started < seconds * 1000) {
          if ((await scrape(body)).cacheState === 'hit') hits += 1;
          else misses += 1;
        }
      }),
    );
    const rate = (hits + misses) / ((performance.now() - started) / 1000);
    rates.push(rate);
    console.log(
      `run ${run}: ${rate.toFixed(0)} req/s (${hits} hits, ${misses} misses, load ${load.toFixed(2)})`,
    );
  }
  const sorted = [...rates].sort((a, b) => a - b);
  console.log(`median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(0)} req/s over ${runs} runs`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await site.close();
  await rm(dataDir, { recursive: true, force: true });
}
