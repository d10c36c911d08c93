import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PeerResult } from './peers/peer-result';
import { watchPeakMemory } from './process-memory';

export type PeerName = 'playwright-direct' | 'crawlee-playwright' | 'crawlee-cheerio';

/** Runs one peer crawler in its own process (so its memory is its own) and reads its result line. */
export async function runPeer(
  name: PeerName,
  env: { startUrl: string; scope: string; concurrency: number; chromePath: string },
): Promise<PeerResult & { peakMemoryBytes: number }> {
  const script = fileURLToPath(new URL(`./peers/${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      BENCH_START_URL: env.startUrl,
      BENCH_SCOPE: env.scope,
      BENCH_CONCURRENCY: String(env.concurrency),
      BENCH_CHROME_PATH: env.chromePath,
      CRAWLEE_STORAGE_DIR: `${process.env.TMPDIR ?? '/tmp'}/tabhive-bench-crawlee-${process.pid}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const memory = watchPeakMemory(child.pid as number);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const peakMemoryBytes = memory.stop();
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((text) => text.startsWith('{"pages"'));
  if (code !== 0 || line === undefined) {
    throw new Error(`peer ${name} failed (exit ${code}):\n${stderr.slice(-2000)}${stdout.slice(-1000)}`);
  }
  return { ...(JSON.parse(line) as PeerResult), peakMemoryBytes };
}
