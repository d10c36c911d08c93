import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { withCpuBusy } from './cpu-busy';
import type { BenchRow } from './results-table';
import { measureCrawl } from './tabhive-measures';
import { startTabhiveProcess, type TabhiveProcess } from './tabhive-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN_API_KEY = 'bench-admin-key-node-scaling-0001';

/** A browser node as `npm run browser-node` runs it (the built .output/server/browser-node.mjs). */
function startNode(serverUrl: string, token: string, browsers: number): ChildProcess {
  return spawn(process.execPath, ['.output/server/browser-node.mjs', '--browsers', String(browsers)], {
    cwd: ROOT,
    env: { ...process.env, TABHIVE_SERVER_URL: serverUrl, TABHIVE_NODE_TOKEN: token },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
}

async function waitForBrowsers(tabhive: TabhiveProcess, count: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const health = (await (await fetch(`${tabhive.url}/health`)).json()) as { browsers: number };
    if (health.browsers >= count) return;
    if (Date.now() > deadline) throw new Error(`${count} node browsers did not join`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Crawl throughput with one browser node, then with two (each `browsersPerNode` browsers), joined
 * to an API instance that launches no browser of its own: the same crawl, every page in a browser.
 * On a machine with room the second node should nearly double it; on two cores the API, the site
 * and every browser share the same CPUs, which the ratio shows.
 */
export async function measureNodeScaling({
  startUrl,
  includePaths,
  limit,
  browsersPerNode = 1,
}: {
  startUrl: string;
  includePaths?: string[];
  limit: number;
  browsersPerNode?: number;
}): Promise<BenchRow[]> {
  const tabhive = await startTabhiveProcess(
    { BROWSERS: '0', HTTP_FAST_PATH: 'false', ADMIN_API_KEY, TEAM_CONCURRENCY: '1000' },
    { readyBrowsers: 0 },
  );
  const nodes: ChildProcess[] = [];
  try {
    const response = await fetch(`${tabhive.url}/admin/v1/node-tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'bench' }),
    });
    const { data } = (await response.json()) as { data: { token: string } };
    const crawlWith = async (count: number) => {
      nodes.push(startNode(tabhive.url, data.token, browsersPerNode));
      await waitForBrowsers(tabhive, count * browsersPerNode);
      const { result, busy } = await withCpuBusy(() =>
        measureCrawl(tabhive, { startUrl, limit, ...(includePaths === undefined ? {} : { includePaths }) }),
      );
      return { ...result, busy };
    };
    const cpu = (busy: number | undefined) =>
      busy === undefined ? '' : `, CPUs ${(busy * 100).toFixed(0)}% busy (${cpus().length} cores)`;
    const one = await crawlWith(1);
    const two = await crawlWith(2);
    const rate = (measure: { pages: number; seconds: number }) => measure.pages / measure.seconds;
    return [
      {
        key: 'node-crawl-1',
        label: `Tabhive crawl through 1 browser node (${browsersPerNode} browser, every page in the browser)`,
        value: rate(one),
        unit: 'pages/s',
        better: 'higher',
        note: `${one.pages} pages${cpu(one.busy)}`,
      },
      {
        key: 'node-crawl-2',
        label: `Tabhive crawl through 2 browser nodes (${browsersPerNode} browser each)`,
        value: rate(two),
        unit: 'pages/s',
        better: 'higher',
        note: `${two.pages} pages${cpu(two.busy)}`,
      },
    ];
  } finally {
    for (const node of nodes) {
      const exited = once(node, 'exit');
      node.kill('SIGINT');
      await exited;
    }
    await tabhive.stop();
  }
}
