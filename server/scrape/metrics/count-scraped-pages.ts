import type { Scraper } from '../create-scraper';
import type { TabhiveMetrics } from '../../platform/metrics/create-tabhive-metrics';

/** `scrape`: a page someone waits for (scrape, search, map); `job`: a crawl, batch or other job's page. */
export type ScrapeSource = 'scrape' | 'job';

/**
 * The scraper, counting the pages it scrapes into `tabhive_pages_scraped_total` (by source and
 * the engine that served each) and timing every scrape into `tabhive_scrape_duration_seconds`.
 */
export function countScrapedPages(
  scraper: Scraper,
  metrics: Pick<TabhiveMetrics, 'pagesScraped' | 'scrapeDuration' | 'engines'>,
  source: ScrapeSource,
): Scraper {
  return {
    async scrape(request, context) {
      const stop = metrics.scrapeDuration.startTimer({ source });
      try {
        const { value, engine } = await metrics.engines.run(() => scraper.scrape(request, context));
        stop({ outcome: 'ok' });
        metrics.pagesScraped.inc({ source, engine });
        return value;
      } catch (err) {
        stop({ outcome: 'error' });
        throw err;
      }
    },
  };
}
