import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';
import { waitUntil } from './start-test-tabhive';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A process of the cluster with its output kept for a failing test's message. */
export interface ClusterProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL, as a machine that vanishes: the process and everything it launched. */
  killHard(): void;
  /** SIGTERM, then waits for the exit; returns its code. */
  stop(): Promise<number | null>;
}

function watch(child: ChildProcess): { output(): string } {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { output: () => output };
}

/** The process ids of a process's children (its browsers, each the leader of its own group). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => Number.isInteger(child) && child > 0);
  } catch {
    return [];
  }
}

const killGroup = (pid: number) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
};

function clusterProcess(child: ChildProcess, cleanup: () => Promise<void>): ClusterProcess {
  const watched = watch(child);
  const exited = once(child, 'exit');
  return {
    child,
    output: watched.output,
    killHard() {
      if (child.pid === undefined) return;
      const browsers = childrenOf(child.pid);
      child.kill('SIGKILL');
      browsers.forEach(killGroup);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      await cleanup();
      return code;
    },
  };
}

/** An API instance as its own process (`node server/main.ts` through tsx), with no browsers of its own. */
export async function startApiProcess(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-cluster-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BROWSERS: '0',
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_NETWORKS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = clusterProcess(child, () => rm(dataDir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`API instance exited:\n${proc.output()}`);
      return (await fetch(`${url}/health`).catch(() => undefined))?.ok === true;
    },
    60_000,
    `the API instance on ${port}`,
  );
  return { ...proc, port, url };
}

/** A browser node as its own process, joining `serverUrl` with `token`. */
export function startNodeProcess({
  serverUrl,
  token,
  browsers,
}: {
  serverUrl: string;
  token: string;
  browsers: number;
}) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/browsers/browser-node/main.ts',
      '--browsers',
      String(browsers),
      '--drain-seconds',
      '10',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, TABHIVE_SERVER_URL: serverUrl, TABHIVE_NODE_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return clusterProcess(child, async () => undefined);
}
