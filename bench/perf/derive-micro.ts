import { deriveFetchedPage } from '../../server/scrape/derive/derive-fetched-page';
import type { PageDeriveOptions } from '../../server/scrape/derive/derive-page';
import { startBenchSite } from './bench-site';

/**
 * `npx tsx bench/perf/derive-micro.ts`: the fast path's per-page CPU in one thread, without HTTP,
 * store or worker hops: the bench site's static pages through deriveFetchedPage (the verdict and
 * the formats, as a derivation worker runs them), with a scrape's default options, with
 * onlyMainContent false, and with a crawl's (which also reads the page's links). Prints ms/page
 * per option set; run it under `node --cpu-prof` (via tsx) to see where the time goes.
 * DERIVE_PAGES (default 100) and DERIVE_ROUNDS (default 10) set the size.
 */
const PAGES = Number(process.env.DERIVE_PAGES ?? 100);
const ROUNDS = Number(process.env.DERIVE_ROUNDS ?? 10);

const base = { removeBase64Images: true, parsePdf: false } as const;
const OPTION_SETS: Array<{ name: string; options: PageDeriveOptions }> = [
  {
    name: 'markdown, onlyMainContent',
    options: { ...base, formats: new Set(['markdown']), onlyMainContent: true },
  },
  {
    name: 'markdown, whole page',
    options: { ...base, formats: new Set(['markdown']), onlyMainContent: false },
  },
  {
    // What a crawl asks since crawls take their links from the worker.
    name: 'crawl (+ pageLinks)',
    options: { ...base, formats: new Set(['markdown']), onlyMainContent: true, pageLinks: true },
  },
];

const site = await startBenchSite({ staticPages: PAGES, scriptPages: 0 });
const pages = await Promise.all(
  site.staticPaths.map(async (path) => {
    const url = `${site.origin}${path}`;
    const response = await fetch(url);
    return {
      url,
      statusCode: response.status,
      contentType: 'text/html; charset=utf-8',
      rawHtml: await response.text(),
    };
  }),
);
await site.close();

console.log(`${pages.length} static bench pages, ${ROUNDS} rounds after one warm-up round`);
for (const { name, options } of OPTION_SETS) {
  for (const page of pages) await deriveFetchedPage(page, options);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const startedCpu = process.cpuUsage();
    for (const page of pages) await deriveFetchedPage(page, options);
    const usedCpu = process.cpuUsage(startedCpu);
    wall.push((performance.now() - started) / pages.length);
    cpu.push((usedCpu.user + usedCpu.system) / 1000 / pages.length);
  }
  console.log(`${name.padEnd(28)} wall ${summary(wall)}   CPU (all threads, GC included) ${summary(cpu)}`);
}

/** The median and the best round, in ms/page: the best shows the cost when nothing else competes. */
function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `median ${median.toFixed(2)} ms/page (best ${(sorted[0] ?? 0).toFixed(2)})`;
}
