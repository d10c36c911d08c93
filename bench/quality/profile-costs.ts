import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveFormats, readRawHtml, type DeriveOptions } from '../../shared/formats/derive-formats';
import { MAIN_CONTENT_PROFILES } from '../../shared/html/main-content-profiles';
import { classifyPageType, PAGE_TYPES, type PageType } from '../../shared/html/page-type';
import { parseHtml } from '../../shared/html/parse-html';
import { loadAeb, loadWcxb, type BenchmarkPage } from './benchmark-pages';
import { markdownText } from './markdown-text';
import { renderLikeFastPath } from './render-like-fast-path';
import { withoutHeadlines } from './score-methods';
import { scorePage, summarize, type PageScore } from './shingle-score';
import { wordBagScore } from './word-bag-score';

/**
 * `tsx bench/quality/profile-costs.ts [table.json]`: what each page would score under each page
 * type's profile (shared/html/main-content-profiles.ts), so that a change to the classifier
 * (shared/html/page-type.ts) can be judged by the F1 it gains or loses, not by its accuracy alone
 * (a better type only helps when its profile does better on that page; issue 35). The first run
 * extracts every page once per distinct profile and writes the table (PROFILE_TABLE, by default
 * /tmp/tabhive-profile-costs.json); later runs only classify the pages again and read the table,
 * in seconds. Prints, per half: the classifier's accuracy per benchmark type, its confusion
 * matrix, the WCXB F1 it earns per benchmark type, the F1 the true type's profile would earn, and
 * the best-of-profiles bound; then AEB as the quality benchmark scores it.
 */
const DATA_ROOT = fileURLToPath(new URL('../../../shared/data', import.meta.url));
const tablePath = process.argv[2] ?? process.env.PROFILE_TABLE ?? '/tmp/tabhive-profile-costs.json';

/**
 * Per page: the WCXB F1, or the AEB shingle score, under each page type's profile; `profiles`
 * says which profile each column was extracted with, so that the table still serves after a
 * profile is set to another type's (a column is read by profile, not by name).
 */
interface CostTable {
  profiles: Record<string, string>;
  pages: Record<string, Record<string, number | PageScore>>;
}
const profileKey = (type: PageType) => JSON.stringify(MAIN_CONTENT_PROFILES[type]);

const wcxb = loadWcxb(join(DATA_ROOT, 'wcxb-dev'));
const aeb = loadAeb(join(DATA_ROOT, 'article-extraction-benchmark'));
const table: CostTable = existsSync(tablePath)
  ? (JSON.parse(readFileSync(tablePath, 'utf8')) as CostTable)
  : buildTable();

function buildTable(): CostTable {
  // Types whose profiles are alike extract alike: one run serves them all.
  const distinct = new Map<string, PageType[]>();
  for (const type of PAGE_TYPES)
    distinct.set(profileKey(type), [...(distinct.get(profileKey(type)) ?? []), type]);
  const built: CostTable = {
    profiles: Object.fromEntries(PAGE_TYPES.map((type) => [type, profileKey(type)])),
    pages: {},
  };
  const options: DeriveOptions = {
    formats: new Set(['markdown']),
    removeBase64Images: true,
    onlyMainContent: true,
    mainContent: 'auto',
  };
  for (const page of [...wcxb, ...aeb]) {
    const rendered = renderLikeFastPath(page.html);
    const row: Record<string, number | PageScore> = {};
    for (const types of distinct.values()) {
      const raw = readRawHtml(parseHtml(page.html), page.url, options);
      raw.metadata.pageType = types[0] as PageType;
      const capture = {
        url: page.url,
        statusCode: 200,
        contentType: 'text/html',
        rawHtml: page.html,
        renderedHtml: rendered,
      };
      const { markdown = '' } = deriveFormats(capture, options, {
        raw,
        renderedDocument: parseHtml(rendered),
      });
      const text = markdownText(markdown);
      const score = aeb.includes(page)
        ? scorePage(page.truth, withoutHeadlines(text))
        : wordBagScore(page.truth, text).f1;
      for (const type of types) row[type] = score;
    }
    built.pages[page.id] = row;
  }
  writeFileSync(tablePath, JSON.stringify(built));
  return built;
}

/** The table's column extracted with the profile `type` has now. */
function column(type: PageType): string {
  const key = profileKey(type);
  const found = Object.entries(table.profiles).find(([, profile]) => profile === key)?.[0];
  if (found === undefined)
    throw new Error(`No column has the ${type} profile: delete ${tablePath} and run again`);
  return found;
}
const columns = new Map(PAGE_TYPES.map((type) => [type, column(type)]));
const scoreOf = (page: BenchmarkPage, type: PageType) => table.pages[page.id]?.[columns.get(type) ?? type];
const f1Of = (page: BenchmarkPage, type: PageType) => {
  const score = scoreOf(page, type);
  return typeof score === 'number' ? score : 0;
};
const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
const cell = (value: number | string, width = 8) => String(value).padStart(width);

const predicted = new Map<string, PageType>();
for (const page of [...wcxb, ...aeb])
  predicted.set(page.id, classifyPageType(parseHtml(page.html), page.url));

for (const half of ['tuning', 'held-out'] as const) {
  const pages = wcxb.filter((page) => page.half === half);
  console.log(`\nWCXB ${half}: ${pages.length} pages; rows = benchmark type, columns = classified type`);
  console.log(
    `${''.padEnd(14)}${PAGE_TYPES.map((type) => cell(type.slice(0, 7))).join('')}   right  F1 now  F1 true  best`,
  );
  for (const truth of PAGE_TYPES) {
    const ofType = pages.filter((page) => page.pageType === truth);
    const row = PAGE_TYPES.map((type) => ofType.filter((page) => predicted.get(page.id) === type).length);
    const right = ofType.filter((page) => predicted.get(page.id) === truth).length / (ofType.length || 1);
    const now = mean(ofType.map((page) => f1Of(page, predicted.get(page.id) ?? 'service')));
    const ifTrue = mean(ofType.map((page) => f1Of(page, truth)));
    const best = mean(ofType.map((page) => Math.max(...PAGE_TYPES.map((type) => f1Of(page, type)))));
    console.log(
      `${truth.padEnd(14)}${row.map((count) => cell(count)).join('')}   ${right.toFixed(2)}   ${now.toFixed(3)}   ${ifTrue.toFixed(3)}   ${best.toFixed(3)}`,
    );
  }
  const overall = mean(pages.map((page) => f1Of(page, predicted.get(page.id) ?? 'service')));
  const right = pages.filter((page) => predicted.get(page.id) === page.pageType).length / pages.length;
  console.log(`overall       accuracy ${right.toFixed(3)}   F1 ${overall.toFixed(4)}`);
}

const aebScores = aeb.flatMap((page) => {
  const score = scoreOf(page, predicted.get(page.id) ?? 'article');
  return typeof score === 'object' ? [score] : [];
});
const aebTypes = new Map<string, number>();
for (const page of aeb) {
  const type = predicted.get(page.id) ?? '';
  aebTypes.set(type, (aebTypes.get(type) ?? 0) + 1);
}
console.log(
  `\nAEB articleBody F1 ${summarize(aebScores, 0).f1.toFixed(4)}; classified ${[...aebTypes].map(([type, count]) => `${type} ${count}`).join(', ')}`,
);

if (process.env.BENCH_DETAILS === '1') {
  console.log('\npage         half     truth         classified    F1 now  under each type');
  for (const page of wcxb) {
    const type = predicted.get(page.id) ?? 'service';
    console.log(
      `${page.id.slice(0, 12)} ${page.half.padEnd(8)} ${page.pageType.padEnd(13)} ${type.padEnd(13)} ${f1Of(page, type).toFixed(3)}  ${PAGE_TYPES.map((t) => `${t.slice(0, 4)} ${f1Of(page, t).toFixed(2)}`).join(' ')} ${page.url}`,
    );
  }
}
