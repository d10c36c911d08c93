import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchPeakMemory } from './process-memory';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_API_KEY = 'fc-bench000000000000000000000000001';

/**
 * The Node arguments of the command `npm start` ends with (package.json), once it has built the
 * extension and the server: `node .output/server/main.mjs`. The bench
 * runs exactly that, with the Node running the bench.
 */
export function startCommandArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = (scripts.start.split('&&').at(-1) ?? '').trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm start does not end with a node command: ${scripts.start}`);
  return args;
}

let built = false;
/** Builds the server once per bench run (`npm run bench` has built it already; a direct run has not). */
function buildServerOnce() {
  if (built) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  built = true;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface TabhiveProcess {
  url: string;
  /** The server's process id (its browsers are its descendants). */
  pid: number;
  /** Spawn to the first browser connected and ready (/health). */
  coldStartMs: number;
  /** The largest sum of the tree's resident sets (VmRSS) so far, in bytes (process-memory.ts). */
  peakMemory(): number;
  /** The largest sum of the tree's proportional set sizes (PSS) so far, in bytes: shared pages once. */
  peakPss(): number;
  /** The PSS of each kind of process (process-kind.ts) at the PSS peak, in bytes. */
  peakPssByKind(): Record<string, number>;
  /** POST/GET with the bench key; JSON in and out. */
  api<T = Record<string, unknown>>(method: string, pathname: string, body?: unknown): Promise<T>;
  stop(): Promise<number>;
}

/**
 * Tabhive as a user runs it (`npm start`: the built server, startCommandArgs()), in its own process
 * with its own data directory, so that its memory (server and browsers) can be measured apart from
 * the bench. `stop()` resolves to the peak RSS sum; `peakPss()` then gives the PSS one.
 */
export async function startTabhiveProcess(
  env: Record<string, string>,
  {
    readyBrowsers = 1,
  }: {
    /** Browsers connected before it counts as ready (0: a server whose browsers join later, from nodes). */
    readyBrowsers?: number;
  } = {},
): Promise<TabhiveProcess> {
  buildServerOnce();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-bench-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, startCommandArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      API_KEY: BENCH_API_KEY,
      ALLOW_PRIVATE_NETWORKS: 'true',
      MONGODB_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const memory = watchPeakMemory(child.pid as number, 250, { pss: true });
  const url = `http://127.0.0.1:${port}`;

  // Generous: under heavy load a cold start took 19 s in the recorded run.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const health = await fetch(`${url}/health`)
      .then((response) => response.json() as Promise<{ browsers: number }>)
      .catch(() => undefined);
    if (health !== undefined && health.browsers >= readyBrowsers) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      memory.stop();
      // SIGTERM, not SIGKILL: the server's exit handler takes its browsers down with it.
      child.kill('SIGTERM');
      await exited;
      throw new Error(`Tabhive did not become ready:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const coldStartMs = performance.now() - started;

  return {
    url,
    pid: child.pid as number,
    coldStartMs,
    peakMemory: memory.peak,
    peakPss: memory.peakPss,
    peakPssByKind: memory.peakPssByKind,
    async api<T>(method: string, pathname: string, body?: unknown) {
      const response = await fetch(`${url}${pathname}`, {
        method,
        headers: { authorization: `Bearer ${BENCH_API_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await response.json()) as T;
      if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    },
    async stop() {
      const peak = memory.stop();
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
      return peak;
    },
  };
}
