import TurndownService from 'turndown';

/**
 * What a peer crawler reports, as one JSON line on stdout. Peers make Markdown with plain
 * turndown from the whole page, the way a hand-written scraper would.
 */
export interface PeerResult {
  pages: number;
  seconds: number;
  /** Pages written by a script (/app/) whose Markdown holds their content. */
  scriptPagesWithContent: number;
  markdownChars: number;
}

export interface PeerSettings {
  startUrl: string;
  /** Only URLs starting with this are followed. */
  scope: string;
  concurrency: number;
  chromePath: string;
}

export function peerSettings(): PeerSettings {
  const startUrl = process.env.BENCH_START_URL;
  const chromePath = process.env.BENCH_CHROME_PATH;
  if (startUrl === undefined || chromePath === undefined) {
    throw new Error('peers run from bench/perf/run-perf-bench.ts (BENCH_START_URL, BENCH_CHROME_PATH)');
  }
  return {
    startUrl,
    scope: process.env.BENCH_SCOPE ?? new URL(startUrl).origin,
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? '4'),
    chromePath,
  };
}

/** Collects pages as a peer converts them and prints the result line. */
export function createTally() {
  const toMarkdown = createMarkdown();
  // The bench starts the peer's CPU ledger on this line (run-peer.ts's CRAWL_STARTED).
  console.log('BENCH_CRAWL_STARTED');
  const started = performance.now();
  let pages = 0;
  let scriptPagesWithContent = 0;
  let markdownChars = 0;
  return {
    page(url: string, html: string) {
      const markdown = toMarkdown(html);
      pages += 1;
      markdownChars += markdown.length;
      if (url.includes('/app/page-') && markdown.includes('# App page')) scriptPagesWithContent += 1;
    },
    report() {
      const result: PeerResult = {
        pages,
        seconds: (performance.now() - started) / 1000,
        scriptPagesWithContent,
        markdownChars,
      };
      console.log(JSON.stringify(result));
    },
  };
}

/** Chromium as root refuses its sandbox; elsewhere the sandbox stays on (as Tabhive's launcher does). */
export const chromiumArgs = () => (process.getuid?.() === 0 ? ['--no-sandbox'] : []);

export interface DynamicPeerSettings {
  lateUrls: string[];
  feedUrls: string[];
  concurrency: number;
  chromePath: string;
}

/** The late and feed pages' addresses (JSON arrays) for the peers' completeness runs. */
export function dynamicPeerSettings(): DynamicPeerSettings {
  const { BENCH_LATE_URLS: late, BENCH_FEED_URLS: feed, BENCH_CHROME_PATH: chromePath } = process.env;
  if (late === undefined || feed === undefined || chromePath === undefined) {
    throw new Error('peers run from bench/perf/run-perf-bench.ts (BENCH_LATE_URLS, BENCH_FEED_URLS, …)');
  }
  return {
    lateUrls: JSON.parse(late) as string[],
    feedUrls: JSON.parse(feed) as string[],
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? '4'),
    chromePath,
  };
}

/** Markdown as the peers make it: plain turndown over the whole page. */
export function createMarkdown() {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  return (html: string) => turndown.turndown(html);
}
