import { type ContenderCrawl, peerCrawl, tabhiveBrowserCrawl } from './engine-contenders';
import type { BenchRow } from './results-table';

export interface SweepResult {
  /** Each contender's best throughput, with the tab count it was reached at. */
  rows: BenchRow[];
  /** Every level's throughput, one column per contender. */
  markdown: string;
}

type Contender = 'tabhive' | 'playwright-direct' | 'crawlee-playwright';
const LABELS: Record<Contender, string> = {
  tabhive: 'Tabhive (browser)',
  'playwright-direct': 'Playwright direct',
  'crawlee-playwright': 'Crawlee PlaywrightCrawler',
};

/**
 * The browser crawl at each number of tabs (Tabhive's TABS_PER_BROWSER, the peers' workers),
 * contenders alternated at each level, so that none is judged off its best: the bench's fixed
 * four tabs may suit one and not another.
 */
export async function sweepConcurrency({
  levels,
  startUrl,
  scope,
  limit,
  chromePath,
  peers,
  env,
  log,
}: {
  levels: number[];
  startUrl: string;
  scope: string;
  limit: number;
  chromePath: string;
  peers: boolean;
  env: Record<string, string>;
  log: (text: string) => void;
}): Promise<SweepResult> {
  const contenders: Contender[] = peers
    ? ['tabhive', 'playwright-direct', 'crawlee-playwright']
    : ['tabhive'];
  const results = new Map<Contender, Map<number, ContenderCrawl>>(
    contenders.map((name) => [name, new Map()]),
  );
  for (const tabs of levels) {
    for (const name of contenders) {
      log(`sweep: ${LABELS[name]} with ${tabs} tabs`);
      const crawl =
        name === 'tabhive'
          ? await tabhiveBrowserCrawl({ startUrl, limit, tabs, env })
          : await peerCrawl(name, { startUrl, scope, concurrency: tabs, chromePath });
      results.get(name)?.set(tabs, crawl);
    }
  }
  const rows: BenchRow[] = contenders.map((name) => {
    const byLevel = [...(results.get(name) ?? new Map<number, ContenderCrawl>()).entries()];
    const [bestTabs, best] = byLevel.reduce((a, b) => (b[1].pagesPerSecond > a[1].pagesPerSecond ? b : a));
    return {
      key: `sweep-best-${name}`,
      label: `${LABELS[name]} crawl at its best tab count`,
      value: best.pagesPerSecond,
      unit: 'pages/s',
      better: 'higher',
      note: `best at ${bestTabs} tabs; ${byLevel.map(([tabs, crawl]) => `${tabs}: ${crawl.pagesPerSecond.toFixed(1)}`).join(', ')}`,
    };
  });
  const lines = [
    `| tabs | ${contenders.map((name) => `${LABELS[name]} pages/s (CPU ms/page)`).join(' | ')} |`,
    `| ---: |${contenders.map(() => ' ---: |').join('')}`,
    ...levels.map((tabs) => {
      const cells = contenders.map((name) => {
        const crawl = results.get(name)?.get(tabs);
        return crawl === undefined
          ? '—'
          : `${crawl.pagesPerSecond.toFixed(1)} (${crawl.cpu?.totalMs.toFixed(0) ?? '—'})`;
      });
      return `| ${tabs} | ${cells.join(' | ')} |`;
    }),
  ];
  return { rows, markdown: lines.join('\n') };
}
