import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { TabhiveError } from '../../platform/errors';
import type { Scraper, ScrapeDocument } from '../../scrape/types';
import { pause } from '../../../shared/time/pause';

/** While a page waits for a team concurrency slot, it asks again after about this long (jittered). */
export const SLOT_RETRY_MS = 1_000;

/**
 * Scrapes one page of an in-process job (extract, llms.txt) as a background job page: a team at
 * its concurrency limit makes the page wait its turn (jittered) rather than fail, until `deadline`
 * or `signal`; then the page is skipped (undefined). Any other failure (402 out of credits, the
 * page's own errors) is the caller's to judge, as the TabhiveError it is.
 */
export async function scrapeJobPage(
  scraper: Scraper,
  request: ScrapeRequestV2,
  { teamId, deadline, signal }: { teamId: string; deadline: number; signal: AbortSignal },
): Promise<ScrapeDocument | undefined> {
  for (;;) {
    const remaining = deadline - Date.now();
    if (signal.aborted || remaining <= 0) return undefined;
    try {
      return await scraper.scrape(
        { ...request, timeout: Math.max(1, Math.min(request.timeout ?? remaining, remaining)) },
        { teamId, admission: 'product-job', keepResult: false },
      );
    } catch (err) {
      if (!(err instanceof TabhiveError) || err.code !== 'CONCURRENCY_LIMIT_EXCEEDED') throw err;
      await pause(SLOT_RETRY_MS * (0.5 + Math.random()), signal);
    }
  }
}
