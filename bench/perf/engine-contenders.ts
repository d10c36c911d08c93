import { type CpuLedger, perPage, watchCpuLedger } from './cpu-ledger';
import { type PageStageMs, watchPageStages } from './page-stages';
import { type PeerName, runPeer } from './run-peer';
import { type TabhiveProcess, startTabhiveProcess } from './tabhive-process';
import { type CrawlMeasure, measureCrawl } from './tabhive-measures';

/** One contender's crawl of the bench site: its throughput and where its CPU went, per page. */
export interface ContenderCrawl {
  pages: number;
  pagesPerSecond: number;
  scriptPagesWithContent: number;
  /** CPU milliseconds per page by kind of process, over the crawl alone. */
  cpu: CpuLedger | undefined;
  /** Tabhive only: a page's wall-clock stages, from its metrics. */
  stages?: PageStageMs;
  peakMemoryBytes: number;
}

/** A crawl by a running Tabhive, with its CPU ledger and stages around the crawl alone. */
export async function ledgeredCrawl(
  tabhive: TabhiveProcess,
  crawl: Omit<Parameters<typeof measureCrawl>[1], 'onDone'>,
): Promise<{ measure: CrawlMeasure; cpu: CpuLedger; stages: PageStageMs }> {
  const stages = await watchPageStages(tabhive.url);
  const ledger = watchCpuLedger([tabhive.pid], { includeSelf: true });
  let cpu: CpuLedger | undefined;
  const measure = await measureCrawl(tabhive, { ...crawl, onDone: () => (cpu = ledger.stop()) });
  const spent = cpu ?? ledger.stop();
  return { measure, cpu: perPage(spent, measure.pages), stages: await stages.stop(measure.pages) };
}

/**
 * Tabhive with every page in a browser (the fast path off), started afresh, `tabs` tabs per
 * browser: its cold start, one crawl of the site, its peak memory. The team's concurrency is
 * raised so that the tabs, not the team's share, bound the crawl.
 */
export async function tabhiveBrowserCrawl({
  startUrl,
  limit,
  tabs,
  env = {},
  whileRunning,
}: {
  startUrl: string;
  limit: number;
  tabs: number;
  env?: Record<string, string>;
  /** More measures on the same process, after the crawl (the first round's extras). */
  whileRunning?: (tabhive: TabhiveProcess) => Promise<void>;
}): Promise<
  ContenderCrawl & { coldStartMs: number; peakPssBytes: number; peakPssByKind: Record<string, number> }
> {
  const tabhive = await startTabhiveProcess({
    HTTP_FAST_PATH: 'false',
    TABS_PER_BROWSER: String(tabs),
    TEAM_CONCURRENCY: String(Math.max(10, tabs * 2)),
    ...env,
  });
  try {
    const { measure, cpu, stages } = await ledgeredCrawl(tabhive, { startUrl, limit });
    await whileRunning?.(tabhive);
    const peakMemoryBytes = await tabhive.stop();
    return {
      pages: measure.pages,
      pagesPerSecond: measure.pages / measure.seconds,
      scriptPagesWithContent: measure.scriptPagesWithContent,
      cpu,
      stages,
      peakMemoryBytes,
      peakPssBytes: tabhive.peakPss(),
      peakPssByKind: tabhive.peakPssByKind(),
      coldStartMs: tabhive.coldStartMs,
    };
  } catch (err) {
    await tabhive.stop().catch(() => undefined);
    throw err;
  }
}

/** A peer's crawl of the site at a concurrency, with its CPU ledger (run-peer.ts). */
export async function peerCrawl(
  name: PeerName,
  settings: { startUrl: string; scope: string; concurrency: number; chromePath: string },
): Promise<ContenderCrawl> {
  const result = await runPeer(name, settings);
  return {
    pages: result.pages,
    pagesPerSecond: result.pages / result.seconds,
    scriptPagesWithContent: result.scriptPagesWithContent,
    cpu: result.cpu === undefined ? undefined : perPage(result.cpu, result.pages),
    peakMemoryBytes: result.peakMemoryBytes,
  };
}
