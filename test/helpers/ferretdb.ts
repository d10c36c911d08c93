import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

/**
 * A real FerretDB (SQLite backend) for the MongoDB variant of the storage tests. The binary is
 * `FERRETDB_PATH` when set (and only that one, so that a wrong path is not silently replaced),
 * else the one `.ci/run` builds into the cache, else /opt/ferretdb.
 */
export function findFerretDb(): string | undefined {
  if (process.env.FERRETDB_PATH)
    return existsSync(process.env.FERRETDB_PATH) ? process.env.FERRETDB_PATH : undefined;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return [path.join(cache, 'tabhive/ferretdb/bin/ferretdb'), '/opt/ferretdb/bin/ferretdb'].find((candidate) =>
    existsSync(candidate),
  );
}

/** CI (and anyone who sets REQUIRE_MONGODB=1) must not pass by skipping the MongoDB suite. */
export const MONGODB_REQUIRED = Boolean(process.env.CI) || process.env.REQUIRE_MONGODB === '1';

/**
 * The FerretDB binary, or undefined after a loud warning when it is missing and not required.
 * Throws when it is required, which fails the test file that asked.
 */
export function ferretDbForTests(): string | undefined {
  const binary = findFerretDb();
  if (binary) return binary;
  const hint =
    'install it with `bash .ci/run` (it builds FerretDB v1.24.2 into ~/.cache/tabhive/ferretdb) or set FERRETDB_PATH';
  if (MONGODB_REQUIRED)
    throw new Error(`FerretDB is required (CI or REQUIRE_MONGODB=1) but was not found: ${hint}`);
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!! MongoDB contract suite SKIPPED: no FerretDB binary found.\n!! To run it, ${hint}.\n${line}\n`,
  );
  return undefined;
}

export interface FerretDb {
  /** `mongodb://127.0.0.1:<port>/<database>`; the port and data survive stop/start. */
  url(database: string): string;
  /** SIGTERM, then waits for the process to exit: an outage as clients see it. */
  stop(): Promise<void>;
  /** Starts again on the same port and data directory and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  dispose(): Promise<void>;
}

const READY_TIMEOUT_MS = 20_000;

export async function startFerretDb(binary: string): Promise<FerretDb> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-ferretdb-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    if (child) return;
    const args = [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--state-dir=${dir}`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      '--debug-addr=127.0.0.1:0',
      '--log-level=error',
    ];
    const started = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child = started;
    const exited = new Promise<never>((_, reject) =>
      started.once('exit', (code, signal) =>
        reject(new Error(`FerretDB exited (${code ?? signal}) before accepting connections: ${stderr}`)),
      ),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForPort(port), exited]);
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return {
    url: (database) => `mongodb://127.0.0.1:${port}/${database}`,
    stop,
    start,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline)
      throw new Error(`FerretDB did not listen on ${port} within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
