import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchmarkPage, loadAeb, loadWcxb } from './benchmark-pages';
import { loadPeerOutput, PEERS } from './peer-outputs';
import { renderLikeFastPath } from './render-like-fast-path';
import {
  aebSummary,
  extractionTimes,
  METHODS,
  type MethodRun,
  runMethod,
  wcxbSummary,
  withoutHeadlines,
} from './score-methods';
import { type Half } from './split-half';

/**
 * `npm run bench:quality`: main-content extraction scored on the Article Extraction Benchmark (181
 * news and blog pages, shingle F1) and the WCXB dev sample (770 scorable pages of seven types, word-bag F1),
 * Tabhive beside Readability alone, the blocklist alone and the whole page, in one run (absolute
 * speeds vary between machines and runs; compare rows of one run). WCXB is split by a hash of each
 * page's site (registered domain, split-half.ts) into a tuning half and a held-out half: rules are
 * tuned on the first, the second decides whether targets are met. Pages are derived from the HTML the fast path would render.
 *
 * BENCH_OUT=<file> writes the figures as JSON (bench/results/quality-*.json); BENCH_DETAILS=1
 * prints each page's F1 per method; BENCH_ONLY=tabhive runs one method.
 */
const DATA_ROOT = fileURLToPath(new URL('../../../shared/data', import.meta.url));
const AEB_DIR = join(DATA_ROOT, 'article-extraction-benchmark');
const WCXB_DIR = join(DATA_ROOT, 'wcxb-dev');
const TYPES = ['article', 'documentation', 'service', 'collection', 'product', 'listing', 'forum'];
const HALVES: (Half | 'all')[] = ['tuning', 'held-out', 'all'];

const aebPages = loadAeb(AEB_DIR);
const wcxbPages = loadWcxb(WCXB_DIR);
const rendered = new Map<string, string>();
for (const page of [...aebPages, ...wcxbPages]) rendered.set(page.id, renderLikeFastPath(page.html));

const only = process.env.BENCH_ONLY;
const methods = METHODS.filter((method) => only === undefined || method.name === only);
// Timed first, before the methods run: their outputs stay until the end, and timed after them the
// same code measured about 2 ms more per page than in a fresh process (BENCHMARKS.md, round 7).
const times = methods.some((method) => method.name === 'tabhive')
  ? extractionTimes(wcxbPages, rendered)
  : undefined;
const fixed = (value: number, width = 6) => value.toFixed(3).padStart(width);
const results: Record<string, unknown> = {};
const details = new Map<string, string[]>();

console.log(
  `Article Extraction Benchmark: ${aebPages.length} pages; WCXB dev sample: ${wcxbPages.length} pages\n`,
);
console.log('AEB                   as served (headline kept)   articleBody (headline left out)');
console.log('method                 precision recall     F1    precision recall     F1  exact  pages/s');
const wcxbRuns = new Map<string, MethodRun>();
for (const method of methods) {
  const aeb = runMethod(aebPages, rendered, method);
  const served = aebSummary(aebPages, aeb.texts);
  const body = aebSummary(aebPages, aeb.texts, withoutHeadlines);
  console.log(
    `${method.name.padEnd(20)} ${fixed(served.precision, 11)} ${fixed(served.recall)} ${fixed(served.f1)} ` +
      `${fixed(body.precision, 12)} ${fixed(body.recall)} ${fixed(body.f1)} ${fixed(body.accuracy)} ` +
      `${aeb.pagesPerSecond.toFixed(1).padStart(8)}`,
  );
  const wcxb = runMethod(wcxbPages, rendered, method);
  wcxbRuns.set(method.name, wcxb);
  results[method.name] = {
    aeb: { served: strip(served), articleBody: strip(body), pagesPerSecond: aeb.pagesPerSecond },
    wcxb: Object.fromEntries(
      HALVES.map((half) => [half, strip(wcxbSummary(inHalf(wcxbPages, half), wcxb.texts))]),
    ),
    wcxbPagesPerSecond: wcxb.pagesPerSecond,
  };
  for (const page of [...aebPages, ...wcxbPages]) {
    const f1 = (page.pageType === 'article' && aebPages.includes(page) ? body : null)?.perPage.get(page.id);
    const score = f1 ?? wcxbSummary([page], wcxb.texts).f1;
    details.set(page.id, [...(details.get(page.id) ?? []), score.toFixed(3)]);
  }
}
for (const peer of PEERS) {
  const texts = loadPeerOutput(AEB_DIR, peer);
  if (texts === undefined) continue;
  const score = aebSummary(aebPages, texts);
  console.log(
    `${`(${peer})`.padEnd(20)} ${' '.repeat(25)} ${fixed(score.precision, 12)} ${fixed(score.recall)} ` +
      `${fixed(score.f1)} ${fixed(score.accuracy)}       —`,
  );
}

console.log(
  `\nWCXB word F1          pages     F1  with%  w/o%  ${TYPES.map((t) => t.slice(0, 7).padStart(7)).join(' ')}  pages/s`,
);
for (const method of methods) {
  const run = wcxbRuns.get(method.name) as MethodRun;
  for (const half of HALVES) {
    const summary = wcxbSummary(inHalf(wcxbPages, half), run.texts);
    const types = TYPES.map((type) => {
      const entry = summary.byType[type];
      return entry === undefined ? '      —' : fixed(entry.f1, 7);
    });
    console.log(
      `${(half === 'tuning' ? method.name : '').padEnd(20)} ${half.padEnd(8)} ${String(summary.pages).padStart(4)} ` +
        `${fixed(summary.f1)} ${fixed(summary.withShare)} ${fixed(summary.withoutShare)}  ${types.join(' ')}` +
        `${half === 'all' ? run.pagesPerSecond.toFixed(1).padStart(9) : ''}`,
    );
  }
}
console.log(
  '\nAEB: means over pages of 4-token shingle overlap, F1 of the two means (its evaluate.py). WCXB: lower-cased\n' +
    'word-bag F1 per page, averaged; with% = required sentences present, w/o% = boilerplate leaked (lower is better).',
);

if (times !== undefined) {
  results.tabhive = { ...(results.tabhive as Record<string, unknown>), extraction: times };
  console.log(
    `\nTabhive's main-content extraction per WCXB page (classify + clean, parsing left out): ` +
      `median ${times.medianMs.toFixed(1)} ms, p95 ${times.p95Ms.toFixed(1)} ms`,
  );
}

if (process.env.BENCH_DETAILS === '1') {
  console.log(`\npage  type           half      ${methods.map((m) => m.name).join(' | ')}`);
  for (const page of [...aebPages, ...wcxbPages]) {
    console.log(
      `${page.id.slice(0, 12).padEnd(12)} ${page.pageType.padEnd(13)} ${page.half.padEnd(8)} ${(details.get(page.id) ?? []).join('  ')}`,
    );
  }
}

const out = process.env.BENCH_OUT;
if (out !== undefined && out !== '') {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ startedAt: new Date().toISOString(), node: process.version, methods: results }, null, 2)}\n`,
  );
  console.log(`\nWrote ${out}`);
}

function inHalf(pages: readonly BenchmarkPage[], half: Half | 'all'): BenchmarkPage[] {
  return half === 'all' ? [...pages] : pages.filter((page) => page.half === half);
}

/** A summary without its per-page map, for the JSON file. */
function strip<T extends { perPage: Map<string, number> }>(summary: T): Omit<T, 'perPage'> {
  const { perPage: _perPage, ...rest } = summary;
  return rest;
}
