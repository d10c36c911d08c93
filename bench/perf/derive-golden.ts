import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { deriveFetchedPage } from '../../server/scrape/derive/derive-fetched-page';
import { derivePage, type PageDeriveOptions } from '../../server/scrape/derive/derive-page';
import { startBenchSite } from './bench-site';

/**
 * `npx tsx bench/perf/derive-golden.ts record|check <file>`: proves that a change to the
 * derivation code keeps its output. `record` (on the code before the change) writes every result
 * for a corpus — the bench site's pages, every HTML page under test/, and the Article Extraction
 * Benchmark's real-world pages when ../shared/data has them — under several option sets, both
 * through the fast path (deriveFetchedPage) and as a browser capture (derivePage); `check` (on the
 * code after it) derives them again and lists every result that differs.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTICLES = join(ROOT, '../shared/data/article-extraction-benchmark/html');

const base = { removeBase64Images: true, parsePdf: false } as const;
const every = new Set(['markdown', 'html', 'rawHtml', 'links', 'images'] as const);
const OPTION_SETS: Record<string, PageDeriveOptions> = {
  crawlDefault: { ...base, formats: new Set(['markdown']), onlyMainContent: true },
  everyFormatMain: { ...base, formats: every, onlyMainContent: true },
  everyFormatWhole: { ...base, formats: every, onlyMainContent: false },
  tags: {
    ...base,
    formats: new Set(['markdown', 'html', 'links']),
    onlyMainContent: true,
    includeTags: ['main', 'article', 'table', '#content'],
    excludeTags: ['.ad', 'nav', 'aside'],
  },
  keepBase64: {
    ...base,
    removeBase64Images: false,
    formats: new Set(['markdown', 'html']),
    onlyMainContent: false,
  },
};

interface CorpusPage {
  name: string;
  url: string;
  html: string;
}

async function corpus(): Promise<CorpusPage[]> {
  const pages: CorpusPage[] = [];
  const site = await startBenchSite({ staticPages: 40, scriptPages: 3 });
  for (const path of ['/', '/static/', '/app/', ...site.staticPaths, ...site.scriptPaths]) {
    const url = `${site.origin}${path}`;
    // The origin's port changes between runs; the name and URL must not.
    pages.push({
      name: `bench${path}`,
      url: `http://bench.test${path}`,
      html: await (await fetch(url)).text(),
    });
  }
  await site.close();
  for (const file of htmlFiles(join(ROOT, 'test'))) {
    const name = relative(ROOT, file);
    pages.push({ name, url: `http://fixture.test/${name}`, html: readFileSync(file, 'utf8') });
  }
  if (existsSync(ARTICLES)) {
    for (const file of readdirSync(ARTICLES).sort()) {
      if (!file.endsWith('.html.gz')) continue;
      const html = gunzipSync(readFileSync(join(ARTICLES, file))).toString('utf8');
      pages.push({ name: `articles/${file}`, url: `https://article.test/${file}`, html });
    }
  }
  return pages;
}

function htmlFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...htmlFiles(path));
    else if (entry.name.endsWith('.html')) files.push(path);
  }
  return files.sort();
}

async function derivations(): Promise<Map<string, string>> {
  const results = new Map<string, string>();
  const run = async (key: string, work: () => Promise<unknown>) => {
    try {
      results.set(key, JSON.stringify(await work()));
    } catch (error) {
      results.set(key, `threw ${String(error)}`);
    }
  };
  for (const page of await corpus()) {
    const fetched = { url: page.url, statusCode: 200, contentType: 'text/html', rawHtml: page.html };
    for (const [optionsName, options] of Object.entries(OPTION_SETS)) {
      await run(`${page.name} fetched ${optionsName}`, () => deriveFetchedPage(fetched, options));
      const capture = { ...fetched, renderedHtml: page.html };
      await run(`${page.name} captured ${optionsName}`, () => derivePage(capture, options));
    }
  }
  return results;
}

const [mode, file] = process.argv.slice(2);
if ((mode !== 'record' && mode !== 'check') || file === undefined) {
  console.error('usage: tsx bench/perf/derive-golden.ts record|check <file>');
  process.exit(2);
}
const results = await derivations();
if (mode === 'record') {
  writeFileSync(file, JSON.stringify(Object.fromEntries(results)));
  console.log(`recorded ${results.size} results in ${file}`);
} else {
  const expected = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
  let differing = 0;
  for (const [key, value] of results) {
    if (expected.get(key) === value) continue;
    differing += 1;
    const before = expected.get(key) ?? '(missing)';
    let at = 0;
    while (at < value.length && before[at] === value[at]) at += 1;
    console.log(
      `DIFFERS ${key}\n  before …${before.slice(Math.max(0, at - 80), at + 120)}\n  after  …${value.slice(Math.max(0, at - 80), at + 120)}`,
    );
  }
  const missing = [...expected.keys()].filter((key) => !results.has(key)).length;
  console.log(`${results.size} results, ${differing} differ, ${missing} no longer produced`);
  if (differing > 0 || missing > 0) process.exitCode = 1;
}
