import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { findChrome } from '../../server/browsers/launcher/find-chrome';
import { startBenchSite } from './bench-site';
import { BENCH_TARGETS } from './bench-targets';
import { dynamicRows } from './dynamic-rows';
import { measureEngineCalls } from './engine-calls';
import { measureNodeScaling } from './measure-node-scaling';
import { type BenchRow, type BenchRun, computeRatios, regressions, renderMarkdown } from './results-table';
import { runDynamicPeer, runPeer } from './run-peer';
import { startTabhiveProcess } from './tabhive-process';
import { measureCacheHits, measureCrawl, measureLateAndFeed, measureScrapeLatency } from './tabhive-measures';

/**
 * `npm run bench`: Tabhive and its peers on one generated local site, in one run, so that the
 * ratios mean something on a noisy machine (absolute figures vary from run to run). Prints a
 * table, writes bench/results/latest.json and latest.md, and compares with the recorded baseline
 * (bench/results/baseline.json; BENCH_SAVE_BASELINE=1 records this run as the new one).
 *
 * BENCH_STATIC_PAGES / BENCH_SCRIPT_PAGES / BENCH_LATE_PAGES / BENCH_FEED_PAGES size the site;
 * BENCH_SKIP_PEERS=1 leaves the peers out.
 */
const RESULTS_DIR = fileURLToPath(new URL('../results', import.meta.url));
const BASELINE = `${RESULTS_DIR}/baseline.json`;
const STATIC_PAGES = Number(process.env.BENCH_STATIC_PAGES ?? '240');
const SCRIPT_PAGES = Number(process.env.BENCH_SCRIPT_PAGES ?? '40');
const LATE_PAGES = Number(process.env.BENCH_LATE_PAGES ?? '20');
const FEED_PAGES = Number(process.env.BENCH_FEED_PAGES ?? '5');
/** Plain pages scraped in the browser while the extension's API calls are counted. */
const ENGINE_CALL_PAGES = 20;
// The admin API (GET /admin/v1/browsers) is mounted only with a key of 16 characters or more.
const ADMIN_API_KEY = 'bench-admin-key-0000000000000001';
const PEER_CONCURRENCY = 4;
const CHEERIO_CONCURRENCY = 8;
const skipPeers = process.env.BENCH_SKIP_PEERS === '1';

const chromePath = findChrome(process.env.CHROME_PATH);
const site = await startBenchSite({
  staticPages: STATIC_PAGES,
  scriptPages: SCRIPT_PAGES,
  latePages: LATE_PAGES,
  feedPages: FEED_PAGES,
});
const allPages = STATIC_PAGES + SCRIPT_PAGES + 3;
const startUrl = `${site.origin}/`;
const staticStart = `${site.origin}/static/`;
const rows: BenchRow[] = [];
const benchStarted = performance.now();
const log = (text: string) =>
  console.log(`[bench ${((performance.now() - benchStarted) / 1000).toFixed(0)} s] ${text}`);
const rate = (measure: { pages: number; seconds: number }) => measure.pages / measure.seconds;
const mb = (bytes: number) => bytes / 1024 / 1024;
const loadBefore = loadavg()[0] ?? 0;
const lateUrls = site.latePaths.map((path) => `${site.origin}${path}`);
const feedUrls = site.feedPaths.map((path) => `${site.origin}${path}`);

log(`site: ${site.origin} (${STATIC_PAGES} static pages, ${SCRIPT_PAGES} pages written by scripts)`);

try {
  // Every page through a browser: the fast path off.
  log('Tabhive, browser only (HTTP_FAST_PATH=false): cold start, crawl, latency, late and feed pages');
  const browserOnly = await startTabhiveProcess({ HTTP_FAST_PATH: 'false', ADMIN_API_KEY });
  rows.push({
    key: 'cold-start',
    label: 'Tabhive cold start to the first ready browser',
    value: browserOnly.coldStartMs,
    unit: 'ms',
    better: 'lower',
  });
  const browserCrawl = await measureCrawl(browserOnly, { startUrl, limit: allPages });
  rows.push({
    key: 'tabhive-browser-crawl',
    label: 'Tabhive crawl, every page in the browser',
    value: rate(browserCrawl),
    unit: 'pages/s',
    better: 'higher',
    note: `${browserCrawl.pages} pages, ${browserCrawl.scriptPagesWithContent}/${SCRIPT_PAGES} script pages complete`,
  });
  const browserLatency = await measureScrapeLatency(
    browserOnly,
    site.scriptPaths.slice(0, 20).map((path) => `${site.origin}${path}`),
  );
  rows.push({
    key: 'browser-scrape-p50',
    label: 'Tabhive scrape latency p50, script page (browser)',
    value: browserLatency.p50Ms,
    unit: 'ms',
    better: 'lower',
  });
  rows.push({
    key: 'browser-scrape-p95',
    label: 'Tabhive scrape latency p95, script page (browser)',
    value: browserLatency.p95Ms,
    unit: 'ms',
    better: 'lower',
  });
  log('Tabhive, browser only: extension API calls per page, late and feed pages');
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
  // Listed together with the peers' at the end.
  const completeness = dynamicRows('tabhive', 'Tabhive (browser, /v2/scrape)', tabhiveDynamic);
  log('Tabhive, browser only: done');
  const browserPeak = await browserOnly.stop();
  rows.push({
    key: 'browser-peak-memory',
    label: 'Tabhive peak memory (server + browser), browser-only run',
    value: mb(browserPeak),
    unit: 'MB',
    better: 'lower',
    note: 'sum of resident sets (shared pages counted in every process)',
  });
  rows.push({
    key: 'browser-peak-memory-pss',
    label: 'Tabhive peak memory (server + browser), browser-only run, proportional',
    value: mb(browserOnly.peakPss()),
    unit: 'MB',
    better: 'lower',
    note: 'sum of proportional set sizes (shared pages counted once)',
  });

  // Browser nodes: the same kind of crawl through one node, then two (issue 21).
  log('Tabhive, browser nodes: crawl through 1 node, then 2');
  rows.push(
    ...(await measureNodeScaling({
      startUrl: staticStart,
      includePaths: ['^/static/'],
      limit: STATIC_PAGES + 1,
    })),
  );

  // The default configuration: the fast path on.
  log('Tabhive, default (HTTP fast path on): crawls, latency, cache hits');
  const tabhive = await startTabhiveProcess({});
  const staticCrawl = await measureCrawl(tabhive, {
    startUrl: staticStart,
    includePaths: ['^/static/'],
    limit: STATIC_PAGES + 1,
  });
  rows.push({
    key: 'tabhive-fast-static-crawl',
    label: 'Tabhive crawl of the static pages (HTTP fast path)',
    value: rate(staticCrawl),
    unit: 'pages/s',
    better: 'higher',
    note: `${staticCrawl.pages} pages`,
  });
  // The peers convert the whole page; Tabhive's default keeps the main content (Readability).
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
  rows.push({
    key: 'fast-scrape-p50',
    label: 'Tabhive scrape latency p50, static page (fast path)',
    value: fastLatency.p50Ms,
    unit: 'ms',
    better: 'lower',
  });
  rows.push({
    key: 'fast-scrape-p95',
    label: 'Tabhive scrape latency p95, static page (fast path)',
    value: fastLatency.p95Ms,
    unit: 'ms',
    better: 'lower',
  });
  const cache = await measureCacheHits(tabhive, `${site.origin}${site.staticPaths[0] ?? '/'}`, 5_000);
  rows.push({
    key: 'cache-hit-rps',
    label: 'Tabhive cache-hit scrapes (8 callers)',
    value: cache.requestsPerSecond,
    unit: 'req/s',
    better: 'higher',
    note: `${cache.misses} misses`,
  });
  const defaultPeak = await tabhive.stop();
  rows.push({
    key: 'default-peak-memory',
    label: 'Tabhive peak memory (server + browser), default run',
    value: mb(defaultPeak),
    unit: 'MB',
    better: 'lower',
  });
  rows.push({
    key: 'default-peak-memory-pss',
    label: 'Tabhive peak memory (server + browser), default run, proportional',
    value: mb(tabhive.peakPss()),
    unit: 'MB',
    better: 'lower',
  });

  if (!skipPeers) {
    const peer = { chromePath, concurrency: PEER_CONCURRENCY, scope: `${site.origin}/` };
    log(`Playwright direct (c${PEER_CONCURRENCY}, one reused page per worker)`);
    const playwright = await runPeer('playwright-direct', { ...peer, startUrl });
    rows.push({
      key: 'playwright-direct-crawl',
      label: `Playwright direct crawl, c${PEER_CONCURRENCY}`,
      value: rate(playwright),
      unit: 'pages/s',
      better: 'higher',
      note: `${playwright.pages} pages, ${playwright.scriptPagesWithContent}/${SCRIPT_PAGES} script pages complete, peak ${mb(playwright.peakMemoryBytes).toFixed(0)} MB`,
    });
    log(`Crawlee PlaywrightCrawler (c${PEER_CONCURRENCY})`);
    const crawleePlaywright = await runPeer('crawlee-playwright', { ...peer, startUrl });
    rows.push({
      key: 'crawlee-playwright-crawl',
      label: `Crawlee PlaywrightCrawler crawl, c${PEER_CONCURRENCY}`,
      value: rate(crawleePlaywright),
      unit: 'pages/s',
      better: 'higher',
      note: `${crawleePlaywright.pages} pages, ${crawleePlaywright.scriptPagesWithContent}/${SCRIPT_PAGES} script pages complete, peak ${mb(crawleePlaywright.peakMemoryBytes).toFixed(0)} MB`,
    });
    log(`Crawlee CheerioCrawler on the static pages (c${CHEERIO_CONCURRENCY})`);
    const cheerio = await runPeer('crawlee-cheerio', {
      ...peer,
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
    const dynamicPeer = { lateUrls, feedUrls, concurrency: PEER_CONCURRENCY, chromePath };
    log('Playwright direct and Crawlee PlaywrightCrawler on the late and feed pages');
    const playwrightDynamic = await runDynamicPeer('playwright-direct', dynamicPeer);
    completeness.push(...dynamicRows('playwright-direct', 'Playwright direct', playwrightDynamic));
    const crawleeDynamic = await runDynamicPeer('crawlee-playwright', dynamicPeer);
    completeness.push(...dynamicRows('crawlee-playwright', 'Crawlee PlaywrightCrawler', crawleeDynamic));
  }
  rows.push(...completeness);
} finally {
  await site.close();
}

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
  },
  rows,
  ratios: computeRatios(rows, BENCH_TARGETS),
};

const previous = existsSync(BASELINE) ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as BenchRun) : undefined;
const markdown = renderMarkdown(run, previous);
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
