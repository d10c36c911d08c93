import { FEED_SCROLLS } from './dynamic-pages';
import { type DynamicResult, measureDynamic } from './dynamic-measure';
import type { TabhiveProcess } from './tabhive-process';

const LATE_TIMEOUT_MS = 10_000;
const FEED_TIMEOUT_MS = 30_000;

export interface CrawlMeasure {
  pages: number;
  seconds: number;
  scriptPagesWithContent: number;
  markdownChars: number;
}

interface CrawlStatus {
  status: string;
  completed: number;
  total: number;
  next?: string;
  data: Array<{ markdown?: string; metadata: { sourceURL?: string; url?: string } }>;
}

/** A /v2/crawl with Markdown output, timed from the request to the job's completion. */
export async function measureCrawl(
  tabhive: TabhiveProcess,
  {
    startUrl,
    includePaths,
    limit,
    scrapeOptions = {},
    onDone,
  }: {
    startUrl: string;
    includePaths?: string[];
    limit: number;
    /** Called as the crawl completes, before its pages are read back (where a CPU ledger stops). */
    onDone?: () => void;
    /** On top of Markdown output with maxAge 0. */
    scrapeOptions?: Record<string, unknown>;
  },
): Promise<CrawlMeasure> {
  const started = performance.now();
  const { id } = await tabhive.api<{ id: string }>('POST', '/v2/crawl', {
    url: startUrl,
    limit,
    sitemap: 'skip',
    ...(includePaths === undefined ? {} : { includePaths }),
    scrapeOptions: { formats: ['markdown'], maxAge: 0, ...scrapeOptions },
  });
  let status: CrawlStatus;
  for (;;) {
    status = await tabhive.api<CrawlStatus>('GET', `/v2/crawl/${id}?limit=1`);
    if (status.status !== 'scraping') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  onDone?.();
  if (status.status !== 'completed') throw new Error(`crawl ended ${status.status}`);

  let scriptPagesWithContent = 0;
  let markdownChars = 0;
  let pages = 0;
  let next: string | undefined = `/v2/crawl/${id}?limit=100`;
  while (next !== undefined) {
    const page: CrawlStatus = await tabhive.api<CrawlStatus>('GET', next.replace(tabhive.url, ''));
    for (const document of page.data) {
      pages += 1;
      markdownChars += document.markdown?.length ?? 0;
      const url = document.metadata.url ?? document.metadata.sourceURL ?? '';
      if (url.includes('/app/page-') && (document.markdown ?? '').includes('# App page')) {
        scriptPagesWithContent += 1;
      }
    }
    next = page.data.length === 0 ? undefined : page.next;
  }
  return { pages, seconds, scriptPagesWithContent, markdownChars };
}

export interface LatencyMeasure {
  p50Ms: number;
  p95Ms: number;
  count: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** One scrape at a time, fresh (maxAge 0), Markdown output: the latency a single caller sees. */
export async function measureScrapeLatency(tabhive: TabhiveProcess, urls: string[]): Promise<LatencyMeasure> {
  const times: number[] = [];
  for (const url of urls) {
    const started = performance.now();
    await tabhive.api('POST', '/v2/scrape', { url, formats: ['markdown'], maxAge: 0 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), count: times.length };
}

/**
 * Requests per second answered from the cache: the same URL, 8 callers at once, for `durationMs`,
 * after `warmUpMs` of the same load, which is not counted. A fresh server is still warming up on
 * this path (its JIT, most likely) for about five seconds: a client sending 2-second bursts to a
 * new server measured 663, 993 and 1313 req/s, and a second client started afterwards against the
 * same server 1194 at once.
 */
export async function measureCacheHits(
  tabhive: TabhiveProcess,
  url: string,
  { durationMs, warmUpMs }: { durationMs: number; warmUpMs: number },
) {
  const body = { url, formats: ['markdown'] };
  const scrape = () =>
    tabhive.api<{ data: { metadata: { cacheState?: string } } }>('POST', '/v2/scrape', body);
  await scrape();
  const load = async (forMs: number) => {
    const started = performance.now();
    let hits = 0;
    let misses = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() - started < forMs) {
          if ((await scrape()).data.metadata.cacheState === 'hit') hits += 1;
          else misses += 1;
        }
      }),
    );
    return { hits, misses, seconds: (performance.now() - started) / 1000 };
  };
  await load(warmUpMs);
  const { hits, misses, seconds } = await load(durationMs);
  return { requestsPerSecond: (hits + misses) / seconds, hits, misses };
}

/**
 * The late pages (a fresh `/v2/scrape` each) and the feed pages (FEED_SCROLLS scroll actions
 * down, then the Markdown), `concurrency` scrapes at a time. Each scrape has a timeout (a late
 * page takes about a second, a feed about 6 s on an idle machine), so that a hanging page costs
 * the bench seconds, not the default 5 minutes; it then counts as failed.
 */
export function measureLateAndFeed(
  tabhive: TabhiveProcess,
  { lateUrls, feedUrls, concurrency }: { lateUrls: string[]; feedUrls: string[]; concurrency: number },
): Promise<DynamicResult> {
  const scrape = async (body: Record<string, unknown>) => {
    const answer = await tabhive.api<{ data: { markdown?: string } }>('POST', '/v2/scrape', {
      formats: ['markdown'],
      maxAge: 0,
      ...body,
    });
    return answer.data.markdown ?? '';
  };
  const scrolls = Array.from({ length: FEED_SCROLLS }, () => ({ type: 'scroll', direction: 'down' }));
  return measureDynamic({
    lateUrls,
    feedUrls,
    concurrency,
    late: (url) => scrape({ url, timeout: LATE_TIMEOUT_MS }),
    feed: (url) => scrape({ url, actions: scrolls, timeout: FEED_TIMEOUT_MS }),
  });
}
