import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { findChrome } from '../../server/browsers/launcher/find-chrome';
import { startBenchSite } from './bench-site';
import { BENCH_TARGETS } from './bench-targets';
import { measureDetectionRows } from './detection-row';
import { dynamicRows } from './dynamic-rows';
import { measureEngineCalls } from './engine-calls';
import { type ContenderCrawl, ledgeredCrawl, peerCrawl, tabhiveBrowserCrawl } from './engine-contenders';
import { type LedgerColumn, renderLedger } from './ledger-table';
import { measureMediaRows } from './media-rows';
import { measureNodeScaling } from './measure-node-scaling';
import { medianLedgers, mergeRounds } from './merge-rounds';
import {
  type BenchRow,
  type BenchRun,
  computeTargetsOverRounds,
  regressions,
  renderMarkdown,
} from './results-table';
import { runDynamicPeer, runPeer } from './run-peer';
import { type SweepResult, sweepConcurrency } from './concurrency-sweep';
import { type TabhiveProcess, startTabhiveProcess } from './tabhive-process';
import { measureCacheHits, measureCrawl, measureLateAndFeed, measureScrapeLatency } from './tabhive-measures';

/**
 * `npm run bench`: Tabhive and its peers on one generated local site, in alternated rounds
 * (Tabhive, then each peer, then again), so that a noisy minute touches every contender alike:
 * each figure is the median of the rounds, each ratio the median of the rounds' ratios, with every
 * round's shown beside it. The browser crawls carry a CPU ledger (cpu-ledger.ts: CPU ms per page
 * by kind of process) and Tabhive's a page's wall-clock stages (page-stages.ts); a concurrency
 * sweep then finds each contender's best number of tabs. Prints a table, writes
 * bench/results/latest.json and latest.md, and compares with the recorded baseline
 * (bench/results/baseline.json; BENCH_SAVE_BASELINE=1 records this run as the new one).
 *
 * BENCH_STATIC_PAGES / BENCH_SCRIPT_PAGES / BENCH_LATE_PAGES / BENCH_FEED_PAGES size the site;
 * BENCH_SKIP_PEERS=1 leaves the peers out; BENCH_ROUNDS (3) sets the rounds; BENCH_SWEEP
 * ("2,4,8,16", or "" for none) the sweep's tab counts.
 */
const RESULTS_DIR = fileURLToPath(new URL('../results', import.meta.url));
const BASELINE = `${RESULTS_DIR}/baseline.json`;
const STATIC_PAGES = Number(process.env.BENCH_STATIC_PAGES ?? '240');
const SCRIPT_PAGES = Number(process.env.BENCH_SCRIPT_PAGES ?? '40');
const LATE_PAGES = Number(process.env.BENCH_LATE_PAGES ?? '20');
const FEED_PAGES = Number(process.env.BENCH_FEED_PAGES ?? '5');
const MEDIA_PAGES = Number(process.env.BENCH_MEDIA_PAGES ?? '40');
/** Plain pages scraped in the browser while the extension's API calls are counted. */
const ENGINE_CALL_PAGES = 20;
// The admin API (GET /admin/v1/browsers) is mounted only with a key of 16 characters or more.
const ADMIN_API_KEY = 'bench-admin-key-0000000000000001';
const PEER_CONCURRENCY = 4;
const CHEERIO_CONCURRENCY = 8;
const skipPeers = process.env.BENCH_SKIP_PEERS === '1';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const SWEEP = (process.env.BENCH_SWEEP ?? '2,4,8,16')
  .split(',')
  .map(Number)
  .filter((tabs) => Number.isInteger(tabs) && tabs > 0);

const chromePath = findChrome(process.env.CHROME_PATH);
const site = await startBenchSite({
  staticPages: STATIC_PAGES,
  scriptPages: SCRIPT_PAGES,
  latePages: LATE_PAGES,
  feedPages: FEED_PAGES,
  mediaPages: MEDIA_PAGES,
});
const allPages = STATIC_PAGES + SCRIPT_PAGES + 3;
const startUrl = `${site.origin}/`;
const staticStart = `${site.origin}/static/`;
const benchStarted = performance.now();
const log = (text: string) =>
  console.log(`[bench ${((performance.now() - benchStarted) / 1000).toFixed(0)} s] ${text}`);
const rate = (measure: { pages: number; seconds: number }) => measure.pages / measure.seconds;
const mb = (bytes: number) => bytes / 1024 / 1024;
const loadBefore = loadavg()[0] ?? 0;
const lateUrls = site.latePaths.map((path) => `${site.origin}${path}`);
const feedUrls = site.feedPaths.map((path) => `${site.origin}${path}`);

log(`site: ${site.origin} (${STATIC_PAGES} static pages, ${SCRIPT_PAGES} pages written by scripts)`);

/** The rows of each alternated round; the first round also holds the figures measured once. */
const rounds: BenchRow[][] = [];
/** Each round's CPU ledgers of the browser crawl, by contender. */
const roundLedgers: LedgerColumn[][] = [];
let sweep: SweepResult | undefined;

try {
  for (let round = 1; round <= ROUNDS; round += 1) {
    const rows: BenchRow[] = [];
    const ledgers: LedgerColumn[] = [];
    const first = round === 1;
    const tag = `round ${round}/${ROUNDS}`;
    // Every page through a browser: the fast path off.
    log(
      `${tag}: Tabhive, browser only (HTTP_FAST_PATH=false): cold start, crawl${first ? ', latency, late and feed pages' : ''}`,
    );
    const browserOnly = await tabhiveBrowserCrawl({
      startUrl,
      limit: allPages,
      tabs: PEER_CONCURRENCY,
      env: { ADMIN_API_KEY },
      whileRunning: first ? (tabhive) => browserOnlyExtras(tabhive, rows) : undefined,
    });
    rows.push(
      {
        key: 'cold-start',
        label: 'Tabhive cold start to the first ready browser',
        value: browserOnly.coldStartMs,
        unit: 'ms',
        better: 'lower',
      },
      {
        key: 'tabhive-browser-crawl',
        label: 'Tabhive crawl, every page in the browser',
        value: browserOnly.pagesPerSecond,
        unit: 'pages/s',
        better: 'higher',
        note: `${browserOnly.pages} pages, ${browserOnly.scriptPagesWithContent}/${SCRIPT_PAGES} script pages complete`,
      },
      {
        key: 'tabhive-browser-cpu-per-page',
        label: 'Tabhive CPU per page, browser crawl (every process, from /proc)',
        value: browserOnly.cpu?.totalMs ?? Number.NaN,
        unit: 'ms',
        better: 'lower',
      },
      {
        key: 'browser-peak-memory',
        label: 'Tabhive peak memory (server + browser), browser-only run',
        value: mb(browserOnly.peakMemoryBytes),
        unit: 'MB',
        better: 'lower',
        note: 'sum of resident sets (shared pages counted in every process)',
      },
      {
        key: 'browser-peak-memory-pss',
        label: 'Tabhive peak memory (server + browser), browser-only run, proportional',
        value: mb(browserOnly.peakPssBytes),
        unit: 'MB',
        better: 'lower',
        note: `sum of proportional set sizes (shared pages counted once); at the peak: ${Object.entries(
          browserOnly.peakPssByKind,
        )
          .sort((a, b) => b[1] - a[1])
          .map(([kind, bytes]) => `${kind} ${mb(bytes).toFixed(0)}`)
          .join(', ')}`,
      },
    );
    if (browserOnly.cpu !== undefined)
      ledgers.push({ name: 'Tabhive', cpu: browserOnly.cpu, stages: browserOnly.stages });

    if (first) {
      // What bot detection makes of each engine on a local detector page (issue 34).
      log('detection: BotD and the consistency checks against each engine');
      rows.push(...(await measureDetectionRows({ chromePath })).rows);
      // Browser nodes: the same kind of crawl through one node, then two (issue 21).
      log('Tabhive, browser nodes: crawl through 1 node, then 2');
      rows.push(
        ...(await measureNodeScaling({
          startUrl: staticStart,
          includePaths: ['^/static/'],
          limit: STATIC_PAGES + 1,
        })),
      );
    }

    if (!skipPeers) {
      const peer = { chromePath, concurrency: PEER_CONCURRENCY, scope: `${site.origin}/`, startUrl };
      log(`${tag}: Playwright direct (c${PEER_CONCURRENCY}, one reused page per worker)`);
      const playwright = await peerCrawl('playwright-direct', peer);
      rows.push(
        ...peerRows('playwright-direct', `Playwright direct crawl, c${PEER_CONCURRENCY}`, playwright),
      );
      if (playwright.cpu !== undefined) ledgers.push({ name: 'Playwright direct', cpu: playwright.cpu });
      log(`${tag}: Crawlee PlaywrightCrawler (c${PEER_CONCURRENCY})`);
      const crawlee = await peerCrawl('crawlee-playwright', peer);
      rows.push(
        ...peerRows('crawlee-playwright', `Crawlee PlaywrightCrawler crawl, c${PEER_CONCURRENCY}`, crawlee),
      );
      if (crawlee.cpu !== undefined) ledgers.push({ name: 'Crawlee PlaywrightCrawler', cpu: crawlee.cpu });
    }

    // The default configuration: the fast path on.
    log(
      `${tag}: Tabhive, default (HTTP fast path on): static crawl, cache hits${first ? ', whole-page and whole-site crawls, latency' : ''}`,
    );
    rows.push(...(await defaultRun(first)));
    if (!skipPeers) {
      log(`${tag}: Crawlee CheerioCrawler on the static pages (c${CHEERIO_CONCURRENCY})`);
      const cheerio = await runPeer('crawlee-cheerio', {
        chromePath,
        concurrency: CHEERIO_CONCURRENCY,
        startUrl: staticStart,
        scope: staticStart,
      });
      rows.push({
        key: 'crawlee-cheerio-static-crawl',
        label: `Crawlee CheerioCrawler crawl of the static pages, c${CHEERIO_CONCURRENCY}`,
        value: rate(cheerio),
        unit: 'pages/s',
        better: 'higher',
        note: `${cheerio.pages} pages`,
      });
      if (first) {
        const dynamicPeer = { lateUrls, feedUrls, concurrency: PEER_CONCURRENCY, chromePath };
        log('Playwright direct and Crawlee PlaywrightCrawler on the late and feed pages');
        const playwrightDynamic = await runDynamicPeer('playwright-direct', dynamicPeer);
        rows.push(...dynamicRows('playwright-direct', 'Playwright direct', playwrightDynamic));
        const crawleeDynamic = await runDynamicPeer('crawlee-playwright', dynamicPeer);
        rows.push(...dynamicRows('crawlee-playwright', 'Crawlee PlaywrightCrawler', crawleeDynamic));
      }
    }
    rounds.push(rows);
    roundLedgers.push(ledgers);
  }

  if (SWEEP.length > 0) {
    log(`concurrency sweep: ${SWEEP.join(', ')} tabs (workers) per contender`);
    sweep = await sweepConcurrency({
      levels: SWEEP,
      startUrl,
      scope: `${site.origin}/`,
      limit: allPages,
      chromePath,
      peers: !skipPeers,
      env: { ADMIN_API_KEY },
      log,
    });
  }
} finally {
  await site.close();
}

/** The browser-only process's figures measured once (the first round): latency, API calls, late and feed pages. */
async function browserOnlyExtras(browserOnly: TabhiveProcess, rows: BenchRow[]) {
  if (MEDIA_PAGES > 0) {
    log('Tabhive, browser only: picture-heavy pages with media skipped and loaded');
    rows.push(
      ...(await measureMediaRows(browserOnly, { startUrl: `${site.origin}/media/`, limit: MEDIA_PAGES + 1 })),
    );
  }
  const browserLatency = await measureScrapeLatency(
    browserOnly,
    site.scriptPaths.slice(0, 20).map((path) => `${site.origin}${path}`),
  );
  rows.push(
    {
      key: 'browser-scrape-p50',
      label: 'Tabhive scrape latency p50, script page (browser)',
      value: browserLatency.p50Ms,
      unit: 'ms',
      better: 'lower',
    },
    {
      key: 'browser-scrape-p95',
      label: 'Tabhive scrape latency p95, script page (browser)',
      value: browserLatency.p95Ms,
      unit: 'ms',
      better: 'lower',
    },
  );
  // Static article pages, one at a time, with nothing else running in the browser.
  const engineCalls = await measureEngineCalls(browserOnly, ADMIN_API_KEY, () =>
    measureScrapeLatency(
      browserOnly,
      site.staticPaths.slice(0, ENGINE_CALL_PAGES).map((path) => `${site.origin}${path}`),
    ),
  );
  rows.push({
    key: 'engine-calls-per-page',
    label: 'Extension API calls per page (plain Markdown page, browser)',
    value: 'unavailable' in engineCalls ? Number.NaN : engineCalls.callsPerTask,
    unit: 'calls',
    better: 'lower',
    note:
      'unavailable' in engineCalls
        ? `not measured: ${engineCalls.unavailable}`
        : `${engineCalls.calls} calls over ${engineCalls.tasks} tasks`,
  });
  const tabhiveDynamic = await measureLateAndFeed(browserOnly, {
    lateUrls,
    feedUrls,
    concurrency: PEER_CONCURRENCY,
  });
  rows.push(...dynamicRows('tabhive', 'Tabhive (browser, /v2/scrape)', tabhiveDynamic));
}

/** Tabhive as configured by default (the fast path on): the static crawl and cache hits; more in the first round. */
async function defaultRun(first: boolean): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const tabhive = await startTabhiveProcess({});
  try {
    const staticCrawl = await ledgeredCrawl(tabhive, {
      startUrl: staticStart,
      includePaths: ['^/static/'],
      limit: STATIC_PAGES + 1,
    });
    rows.push(
      {
        key: 'tabhive-fast-static-crawl',
        label: 'Tabhive crawl of the static pages (HTTP fast path)',
        value: rate(staticCrawl.measure),
        unit: 'pages/s',
        better: 'higher',
        note: `${staticCrawl.measure.pages} pages`,
      },
      {
        key: 'tabhive-fast-cpu-per-page',
        label: 'Tabhive CPU per page, static crawl (HTTP fast path)',
        value: staticCrawl.cpu.totalMs,
        unit: 'ms',
        better: 'lower',
        note: `derivation workers ${(staticCrawl.cpu.byKind['node-derive'] ?? 0).toFixed(1)} ms, main thread ${(staticCrawl.cpu.byKind['node-main'] ?? 0).toFixed(1)} ms`,
      },
    );
    if (first) {
      // The peers convert the whole page; Tabhive's default keeps the main content.
      const wholePageCrawl = await measureCrawl(tabhive, {
        startUrl: staticStart,
        includePaths: ['^/static/'],
        limit: STATIC_PAGES + 1,
        scrapeOptions: { onlyMainContent: false },
      });
      rows.push({
        key: 'tabhive-fast-static-crawl-whole-page',
        label: 'Tabhive crawl of the static pages (HTTP fast path), onlyMainContent: false as the peers',
        value: rate(wholePageCrawl),
        unit: 'pages/s',
        better: 'higher',
        note: `${wholePageCrawl.pages} pages`,
      });
      const mixedCrawl = await measureCrawl(tabhive, { startUrl, limit: allPages });
      rows.push({
        key: 'tabhive-default-crawl',
        label: 'Tabhive crawl of the whole site (default settings)',
        value: rate(mixedCrawl),
        unit: 'pages/s',
        better: 'higher',
        note: `${mixedCrawl.pages} pages, ${mixedCrawl.scriptPagesWithContent}/${SCRIPT_PAGES} script pages complete`,
      });
      const fastLatency = await measureScrapeLatency(
        tabhive,
        site.staticPaths.slice(0, 40).map((path) => `${site.origin}${path}`),
      );
      rows.push(
        {
          key: 'fast-scrape-p50',
          label: 'Tabhive scrape latency p50, static page (fast path)',
          value: fastLatency.p50Ms,
          unit: 'ms',
          better: 'lower',
        },
        {
          key: 'fast-scrape-p95',
          label: 'Tabhive scrape latency p95, static page (fast path)',
          value: fastLatency.p95Ms,
          unit: 'ms',
          better: 'lower',
        },
      );
    }
    const cache = await measureCacheHits(tabhive, `${site.origin}${site.staticPaths[0] ?? '/'}`, {
      durationMs: 5_000,
      warmUpMs: 5_000,
    });
    rows.push({
      key: 'cache-hit-rps',
      label: 'Tabhive cache-hit scrapes (8 callers)',
      value: cache.requestsPerSecond,
      unit: 'req/s',
      better: 'higher',
      note: `${cache.misses} misses`,
    });
  } finally {
    const defaultPeak = await tabhive.stop();
    rows.push(
      {
        key: 'default-peak-memory',
        label: 'Tabhive peak memory (server + browser), default run',
        value: mb(defaultPeak),
        unit: 'MB',
        better: 'lower',
      },
      {
        key: 'default-peak-memory-pss',
        label: 'Tabhive peak memory (server + browser), default run, proportional',
        value: mb(tabhive.peakPss()),
        unit: 'MB',
        better: 'lower',
      },
    );
  }
  return rows;
}

/** A peer's crawl rows: throughput and CPU per page. */
function peerRows(key: string, label: string, crawl: ContenderCrawl): BenchRow[] {
  return [
    {
      key: `${key}-crawl`,
      label,
      value: crawl.pagesPerSecond,
      unit: 'pages/s',
      better: 'higher',
      note: `${crawl.pages} pages, ${crawl.scriptPagesWithContent}/${SCRIPT_PAGES} script pages complete, peak ${mb(crawl.peakMemoryBytes).toFixed(0)} MB`,
    },
    {
      key: `${key}-cpu-per-page`,
      label: `${label.replace(/ crawl,.*$/, '')} CPU per page (every process, from /proc)`,
      value: crawl.cpu?.totalMs ?? Number.NaN,
      unit: 'ms',
      better: 'lower',
    },
  ];
}

const rows = mergeRounds(rounds);
if (sweep !== undefined) rows.push(...sweep.rows);
const ledger = medianLedgers(roundLedgers);
const run: BenchRun = {
  startedAt: new Date().toISOString(),
  conditions: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    loadAverageBefore: Number(loadBefore.toFixed(2)),
    loadAverageAfter: Number((loadavg()[0] ?? 0).toFixed(2)),
    node: process.version,
    chromium: chromePath,
    staticPages: STATIC_PAGES,
    scriptPages: SCRIPT_PAGES,
    latePages: LATE_PAGES,
    feedPages: FEED_PAGES,
    rounds: ROUNDS,
  },
  rows,
  ratios: computeTargetsOverRounds(rounds, BENCH_TARGETS),
  ledger,
};

const previous = existsSync(BASELINE) ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as BenchRun) : undefined;
const markdown = [
  renderMarkdown(run, previous),
  `### CPU ledger of the browser crawl (median of ${ROUNDS} rounds, c${PEER_CONCURRENCY})`,
  renderLedger(ledger),
  ...(sweep === undefined ? [] : ['### Concurrency sweep', sweep.markdown]),
].join('\n\n');
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(`${RESULTS_DIR}/latest.json`, `${JSON.stringify(run, null, 2)}\n`);
writeFileSync(
  `${RESULTS_DIR}/latest.md`,
  `Run of ${run.startedAt}; conditions: ${JSON.stringify(run.conditions)}\n\n${markdown}\n`,
);
console.log(`\n${markdown}\n`);
console.log(`conditions: ${JSON.stringify(run.conditions)}`);
const worse = regressions(run, previous);
if (
  previous !== undefined &&
  (previous.conditions.staticPages !== STATIC_PAGES || previous.conditions.scriptPages !== SCRIPT_PAGES)
) {
  console.log('The baseline was measured on a site of another size: compare with care.');
}
if (previous === undefined)
  console.log('No baseline recorded (bench/results/baseline.json): nothing to compare with.');
else if (worse.length === 0)
  console.log(`Compared with the baseline of ${previous.startedAt}: no regression beyond 20 %.`);
else
  console.log(
    `Compared with the baseline of ${previous.startedAt}, worse by more than 20 %:\n  ${worse.join('\n  ')}`,
  );
if (process.env.BENCH_SAVE_BASELINE === '1') {
  writeFileSync(BASELINE, `${JSON.stringify(run, null, 2)}\n`);
  console.log('Recorded this run as the new baseline.');
}
console.log('Written: bench/results/latest.json, bench/results/latest.md');
