import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Half, splitHalf } from './split-half';

/** A page of one of the benchmarks, with what its ground truth says the main content is. */
export interface BenchmarkPage {
  id: string;
  url: string;
  html: string;
  /** The main content as plain text. */
  truth: string;
  pageType: string;
  half: Half;
  /** WCXB only: sentences that must appear, boilerplate that must not. */
  with: string[];
  without: string[];
}

const gunzipText = (path: string) => gunzipSync(readFileSync(path)).toString('utf8');

function requireFile(path: string, what: string): void {
  if (!existsSync(path)) {
    console.error(
      `The ${what} is missing: expected ${path} (kept beside the repository in ../shared/data/).`,
    );
    process.exit(1);
  }
}

/** The Article Extraction Benchmark: 181 news and blog pages, truth without the headline. */
export function loadAeb(dataDir: string): BenchmarkPage[] {
  requireFile(join(dataDir, 'ground-truth.json'), 'Article Extraction Benchmark');
  const truth = JSON.parse(readFileSync(join(dataDir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { articleBody: string; url: string }
  >;
  return readdirSync(join(dataDir, 'html'))
    .filter((name) => name.endsWith('.html.gz'))
    .sort()
    .flatMap((name) => {
      const id = name.slice(0, -'.html.gz'.length);
      const entry = truth[id];
      if (entry === undefined) return [];
      return [
        {
          id,
          url: entry.url,
          html: gunzipText(join(dataDir, 'html', name)),
          truth: entry.articleBody,
          pageType: 'article',
          half: splitHalf(entry.url),
          with: [],
          without: [],
        },
      ];
    });
}

interface WcxbTruth {
  url: string;
  ground_truth: { main_content?: string | null; with?: string[]; without?: string[] };
}

/** The WCXB dev sample: 770 scorable pages of seven types (one has no main content in its truth) (metadata-dev.json gives each page's type). */
export function loadWcxb(dataDir: string): BenchmarkPage[] {
  requireFile(join(dataDir, 'metadata-dev.json'), 'WCXB dev sample');
  const metadata = JSON.parse(readFileSync(join(dataDir, 'metadata-dev.json'), 'utf8')) as {
    files: Record<string, { page_type: string }>;
  };
  return readdirSync(join(dataDir, 'html'))
    .filter((name) => name.endsWith('.html.gz'))
    .sort()
    .flatMap((name) => {
      const id = name.slice(0, -'.html.gz'.length);
      const truthFile = join(dataDir, 'ground-truth', `${id}.json`);
      const pageType = metadata.files[id]?.page_type;
      if (pageType === undefined || !existsSync(truthFile)) return [];
      const { url, ground_truth: truth } = JSON.parse(readFileSync(truthFile, 'utf8')) as WcxbTruth;
      // One page of the sample has no main content in its ground truth; it cannot be scored.
      if (typeof truth.main_content !== 'string') return [];
      return [
        {
          id,
          url,
          html: gunzipText(join(dataDir, 'html', name)),
          truth: truth.main_content,
          pageType,
          half: splitHalf(url),
          with: truth.with ?? [],
          without: truth.without ?? [],
        },
      ];
    });
}
