/**
 * Precision and recall of prompt-injection screening's rules (server/scrape/enrich/screen/) on the
 * fixture corpus in test/fixtures/prompt-injection/: `injection/` pages must be flagged, `clean/`
 * pages (hard negatives among them: articles that quote injections, hidden menus, flag emoji,
 * right-to-left text) must not. The rules alone, without a model: what a server with no
 * LLM_BASE_URL does. Run: `npx tsx bench/quality/prompt-injection-bench.ts [--json]`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rulesDetect, screenPage } from '../../server/scrape/enrich/screen/screen-page';

export interface InjectionBenchResult {
  pages: number;
  injectionPages: number;
  cleanPages: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  missed: string[];
  falseAlarms: string[];
  /** Mean time the rules took per page (parse included), in ms: a measurement, not a bound. */
  msPerPage: number;
}

const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/prompt-injection');

export function runInjectionBench(corpus = CORPUS): InjectionBenchResult {
  const started = performance.now();
  const verdicts = (kind: 'injection' | 'clean') =>
    readdirSync(join(corpus, kind))
      .filter((name) => name.endsWith('.html'))
      .sort()
      .map((name) => ({
        name: `${kind}/${name}`,
        flagged: rulesDetect(screenPage({ html: readFileSync(join(corpus, kind, name), 'utf8') })),
      }));
  const injection = verdicts('injection');
  const clean = verdicts('clean');
  const truePositives = injection.filter((page) => page.flagged).length;
  const falsePositives = clean.filter((page) => page.flagged).length;
  const falseNegatives = injection.length - truePositives;
  const msPerPage = (performance.now() - started) / Math.max(1, injection.length + clean.length);
  return {
    pages: injection.length + clean.length,
    injectionPages: injection.length,
    cleanPages: clean.length,
    truePositives,
    falsePositives,
    falseNegatives,
    precision: truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives),
    recall: injection.length === 0 ? 1 : truePositives / injection.length,
    missed: injection.filter((page) => !page.flagged).map((page) => page.name),
    falseAlarms: clean.filter((page) => page.flagged).map((page) => page.name),
    msPerPage: Math.round(msPerPage * 100) / 100,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = runInjectionBench();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(
      `prompt-injection screening (rules only): ${result.pages} pages ` +
        `(${result.injectionPages} injection, ${result.cleanPages} clean)\n` +
        `precision ${result.precision.toFixed(3)}  recall ${result.recall.toFixed(3)}  ` +
        `(TP ${result.truePositives}, FP ${result.falsePositives}, FN ${result.falseNegatives}); ` +
        `${result.msPerPage} ms per page`,
    );
    if (result.missed.length > 0) console.log(`missed: ${result.missed.join(', ')}`);
    if (result.falseAlarms.length > 0) console.log(`false alarms: ${result.falseAlarms.join(', ')}`);
  }
}
