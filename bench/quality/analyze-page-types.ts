import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../../shared/html/parse-html';
import { classifyPageType, PAGE_TYPES } from '../../shared/html/page-type';
import { loadAeb, loadWcxb } from './benchmark-pages';
import { renderLikeFastPath } from './render-like-fast-path';
import { METHODS, runMethod, wcxbSummary } from './score-methods';

/**
 * `tsx bench/quality/analyze-page-types.ts [tuning|held-out|all]`: how the page-type classifier
 * (shared/html/page-type.ts) sorts the WCXB dev sample (rows: the benchmark's type, columns: the
 * classifier's) and the AEB articles, and each method's F1 by classified type: which profile suits
 * which type, decided on the tuning half (issue 35).
 */
const DATA_ROOT = fileURLToPath(new URL('../../../shared/data', import.meta.url));
const half = process.argv[2] ?? 'tuning';
const wcxb = loadWcxb(join(DATA_ROOT, 'wcxb-dev')).filter((page) => half === 'all' || page.half === half);
const aeb = loadAeb(join(DATA_ROOT, 'article-extraction-benchmark'));

const predicted = new Map<string, string>();
for (const page of [...wcxb, ...aeb])
  predicted.set(page.id, classifyPageType(parseHtml(page.html), page.url));

console.log(`WCXB ${half}: ${wcxb.length} pages; rows = benchmark type, columns = classified type`);
console.log(`${''.padEnd(14)}${PAGE_TYPES.map((type) => type.slice(0, 7).padStart(8)).join('')}`);
for (const truth of PAGE_TYPES) {
  const row = PAGE_TYPES.map(
    (type) => wcxb.filter((page) => page.pageType === truth && predicted.get(page.id) === type).length,
  );
  console.log(`${truth.padEnd(14)}${row.map((count) => String(count).padStart(8)).join('')}`);
}
const aebTypes = new Map<string, number>();
for (const page of aeb)
  aebTypes.set(predicted.get(page.id) ?? '', (aebTypes.get(predicted.get(page.id) ?? '') ?? 0) + 1);
console.log(`AEB (all articles): ${[...aebTypes].map(([type, count]) => `${type} ${count}`).join(', ')}`);

const rendered = new Map(wcxb.map((page) => [page.id, renderLikeFastPath(page.html)]));
const methods = METHODS.filter((method) => method.name !== 'whole page');
const runs = methods.map((method) => wcxbSummary(wcxb, runMethod(wcxb, rendered, method).texts).perPage);
console.log(
  `\nF1 by classified type   pages  ${methods.map((method) => method.name.padStart(18)).join('')}   best-of`,
);
for (const type of PAGE_TYPES) {
  const pages = wcxb.filter((page) => predicted.get(page.id) === type);
  if (pages.length === 0) continue;
  const means = runs.map(
    (perPage) => pages.reduce((sum, page) => sum + (perPage.get(page.id) ?? 0), 0) / pages.length,
  );
  const oracle =
    pages.reduce((sum, page) => sum + Math.max(...runs.map((perPage) => perPage.get(page.id) ?? 0)), 0) /
    pages.length;
  console.log(
    `${type.padEnd(22)} ${String(pages.length).padStart(6)}  ${means.map((mean) => mean.toFixed(3).padStart(18)).join('')}   ${oracle.toFixed(3)}`,
  );
}
if (process.env.BENCH_DETAILS === '1') {
  for (const page of wcxb)
    console.log(
      `${page.id.slice(0, 12)} ${page.pageType.padEnd(13)} ${(predicted.get(page.id) ?? '').padEnd(13)} ${runs.map((perPage) => (perPage.get(page.id) ?? 0).toFixed(3)).join(' ')} ${page.url}`,
    );
}
