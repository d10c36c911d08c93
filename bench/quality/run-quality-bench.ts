import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { deriveFormats, type DeriveOptions } from '../../shared/formats/derive-formats';
import { markdownText } from './markdown-text';
import { type PageScore, scorePage, summarize, tokenize } from './shingle-score';

/**
 * `npm run bench:quality`: main-content extraction over the Article Extraction Benchmark (181 news
 * and blog pages with hand-checked article text), scored with its own shingle metric. Tabhive's
 * per-page choice runs beside Readability alone, the blocklist alone and the whole page, on the
 * same pages in the same run, since absolute speeds vary between machines and runs.
 * BENCH_DETAILS=1 prints each page's F1 per method.
 */
const DATA_DIR = fileURLToPath(new URL('../../../shared/data/article-extraction-benchmark', import.meta.url));

interface Method {
  name: string;
  options: Pick<DeriveOptions, 'onlyMainContent' | 'mainContent'>;
}

const METHODS: Method[] = [
  { name: 'tabhive (per page)', options: { onlyMainContent: true, mainContent: 'auto' } },
  { name: 'readability alone', options: { onlyMainContent: true, mainContent: 'readability' } },
  { name: 'blocklist alone', options: { onlyMainContent: true, mainContent: 'blocklist' } },
  { name: 'whole page', options: { onlyMainContent: false } },
];

if (!existsSync(join(DATA_DIR, 'ground-truth.json'))) {
  console.error(
    `The benchmark data is missing: expected ${DATA_DIR}/ground-truth.json and html/*.html.gz ` +
      '(the Article Extraction Benchmark, kept beside the repository in ../shared/data/).',
  );
  process.exit(1);
}

const truth = JSON.parse(readFileSync(join(DATA_DIR, 'ground-truth.json'), 'utf8')) as Record<
  string,
  { articleBody: string; url: string }
>;
const pages = readdirSync(join(DATA_DIR, 'html'))
  .filter((name) => name.endsWith('.html.gz'))
  .map((name) => name.slice(0, -'.html.gz'.length))
  .filter((id) => truth[id] !== undefined)
  .sort()
  .map((id) => ({
    id,
    html: gunzipSync(readFileSync(join(DATA_DIR, 'html', `${id}.html.gz`))).toString('utf8'),
    ...(truth[id] as { articleBody: string; url: string }),
  }));

const details = process.env.BENCH_DETAILS === '1';
const perPage = new Map<string, string[]>();
console.log(`Article Extraction Benchmark: ${pages.length} pages from ${DATA_DIR}\n`);
console.log('method               precision  recall     F1  exact  pages/s');
for (const method of METHODS) {
  const scores: PageScore[] = [];
  let exact = 0;
  let elapsedMs = 0;
  for (const page of pages) {
    const started = performance.now();
    const { markdown = '' } = deriveFormats(
      {
        url: page.url,
        statusCode: 200,
        contentType: 'text/html',
        rawHtml: page.html,
        renderedHtml: page.html,
      },
      { formats: new Set(['markdown']), removeBase64Images: true, ...method.options },
    );
    elapsedMs += performance.now() - started;
    const text = markdownText(markdown);
    const score = scorePage(page.articleBody, text);
    scores.push(score);
    if (tokenize(text).join(' ') === tokenize(page.articleBody).join(' ')) exact += 1;
    if (details) {
      const f1 = (2 * score.tp) / (2 * score.tp + score.fp + score.fn || 1);
      perPage.set(page.id, [...(perPage.get(page.id) ?? []), f1.toFixed(3)]);
    }
  }
  const { precision, recall, f1, accuracy } = summarize(scores, exact);
  const rate = pages.length / (elapsedMs / 1000);
  console.log(
    `${method.name.padEnd(20)} ${precision.toFixed(3).padStart(9)} ${recall.toFixed(3).padStart(7)} ` +
      `${f1.toFixed(3).padStart(6)} ${accuracy.toFixed(3).padStart(6)} ${rate.toFixed(1).padStart(8)}`,
  );
}
if (details) {
  console.log(`\npage  ${METHODS.map((m) => m.name).join(' | ')}`);
  for (const [id, values] of perPage) console.log(`${id.slice(0, 12)}  ${values.join('  ')}`);
}
console.log(
  '\nprecision, recall: means over pages of 4-token shingle overlap; F1 of the two means (AEB metric).',
);
