import type { TabhiveMetrics } from '../../platform/metrics';
import type { ScrapeSource } from '../admit';

export type ScrapeMetrics = Pick<TabhiveMetrics, 'pagesScraped' | 'scrapeDuration' | 'engines'>;

/**
 * Runs one scrape (`work`), counting its page into `tabhive_pages_scraped_total` (by source and
 * the engine that served it) and timing it into `tabhive_scrape_duration_seconds`.
 */
export async function countScrapedPage<T>(
  metrics: ScrapeMetrics | undefined,
  source: ScrapeSource,
  work: () => Promise<T>,
): Promise<T> {
  if (metrics === undefined) return work();
  const stop = metrics.scrapeDuration.startTimer({ source });
  try {
    const { value, engine } = await metrics.engines.run(work);
    stop({ outcome: 'ok' });
    metrics.pagesScraped.inc({ source, engine });
    return value;
  } catch (err) {
    stop({ outcome: 'error' });
    throw err;
  }
}
