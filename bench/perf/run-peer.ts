import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type CpuLedger, watchCpuLedger } from './cpu-ledger';
import type { DynamicResult } from './dynamic-measure';
import type { PeerResult } from './peers/peer-result';
import { watchPeakMemory } from './process-memory';

export type PeerName = 'playwright-direct' | 'crawlee-playwright' | 'crawlee-cheerio';
export type DynamicPeerName = 'playwright-direct' | 'crawlee-playwright';

/** The line a peer prints as its crawl starts, its browser launched (peer-result.ts's createTally). */
export const CRAWL_STARTED = 'BENCH_CRAWL_STARTED';

/**
 * Runs `peers/<script>.ts` in its own process (so its memory is its own) and reads its result:
 * the last line of its output that is a JSON object. Its CPU ledger (cpu-ledger.ts) covers the
 * crawl alone: from the line saying it started to its result, the browser's launch and close left
 * out as they are from Tabhive's (whose browsers run before its crawl starts).
 */
async function runPeerScript<T>(
  script: string,
  env: Record<string, string>,
): Promise<T & { peakMemoryBytes: number; cpu: CpuLedger | undefined }> {
  const file = fileURLToPath(new URL(`./peers/${script}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env: {
      ...process.env,
      ...env,
      CRAWLEE_STORAGE_DIR: `${process.env.TMPDIR ?? '/tmp'}/tabhive-bench-crawlee-${process.pid}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const memory = watchPeakMemory(child.pid as number);
  let stdout = '';
  let stderr = '';
  let ledger: ReturnType<typeof watchCpuLedger> | undefined;
  let cpu: CpuLedger | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (ledger === undefined && stdout.includes(CRAWL_STARTED)) {
      ledger = watchCpuLedger([child.pid as number], { includeSelf: true });
    }
    if (ledger !== undefined && cpu === undefined && /^\{"/m.test(stdout)) cpu = ledger.stop();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const peakMemoryBytes = memory.stop();
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((text) => text.startsWith('{"'));
  if (code !== 0 || line === undefined) {
    throw new Error(`peer ${script} failed (exit ${code}):\n${stderr.slice(-2000)}${stdout.slice(-1000)}`);
  }
  return { ...(JSON.parse(line) as T), peakMemoryBytes, cpu };
}

/** One peer's crawl of the site. */
export function runPeer(
  name: PeerName,
  env: { startUrl: string; scope: string; concurrency: number; chromePath: string },
): Promise<PeerResult & { peakMemoryBytes: number; cpu: CpuLedger | undefined }> {
  return runPeerScript<PeerResult>(name, {
    BENCH_START_URL: env.startUrl,
    BENCH_SCOPE: env.scope,
    BENCH_CONCURRENCY: String(env.concurrency),
    BENCH_CHROME_PATH: env.chromePath,
  });
}

/** One peer on the late and feed pages (dynamic-pages.ts). */
export function runDynamicPeer(
  name: DynamicPeerName,
  env: { lateUrls: string[]; feedUrls: string[]; concurrency: number; chromePath: string },
): Promise<DynamicResult & { peakMemoryBytes: number; cpu: CpuLedger | undefined }> {
  return runPeerScript<DynamicResult>(`${name}-dynamic`, {
    BENCH_LATE_URLS: JSON.stringify(env.lateUrls),
    BENCH_FEED_URLS: JSON.stringify(env.feedUrls),
    BENCH_CONCURRENCY: String(env.concurrency),
    BENCH_CHROME_PATH: env.chromePath,
  });
}
