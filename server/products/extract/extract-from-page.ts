import type { FormatV2 } from '../../../shared/api/v2/formats';
import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { TabhiveError } from '../../platform/errors';
import { scrapeJobPage } from '../jobs';
import type { Log } from '../../platform/log';
import type { Scraper } from '../../scrape/types';
import { EXTRACT_PAGE_TIMEOUT_MS } from './extract-limits';
import { TooDeepError, cleanPageValue } from './page-extraction';

/** How one page went. Only `extracted` pages feed the merge; `credits` is what the page was booked. */
export type PageOutcome =
  | { kind: 'extracted'; url: string; value: unknown; credits: number }
  | { kind: 'error-status'; url: string; status: number; credits: number }
  | { kind: 'failed'; url: string; reason: string }
  | { kind: 'no-credits'; url: string }
  | { kind: 'skipped'; url: string };

export type JsonFormat = Extract<FormatV2, { type: 'json' }>;

export interface PageContext {
  /** The scraper: each page, a `product-job` (scrapeJobPage), is booked, holds a team slot, meets the URL policy. */
  scraper: Scraper;
  teamId: string;
  scrapeOptions: ScrapeOptionsV2;
  /** The json format each page is scraped with: the per-page schema and prompt. */
  format: JsonFormat;
  /** Past this time (ms since the epoch) no page starts. */
  deadline: number;
  signal: AbortSignal;
  log: Log;
}

/**
 * Scrapes one page with the json format, which fills the per-page schema (the model, or the
 * page's structured data without one). A team at its concurrency limit makes the page wait its
 * turn (scrapeJobPage) rather than fail; a team out of credits stops it. A page that answers
 * 4xx/5xx is scraped (and booked) as any scrape, but its error page is not extracted from.
 */
export async function extractFromPage(url: string, context: PageContext): Promise<PageOutcome> {
  const { scraper, teamId, scrapeOptions, format, deadline, signal, log } = context;
  try {
    const document = await scrapeJobPage(
      scraper,
      {
        ...scrapeOptions,
        formats: [format],
        timeout: scrapeOptions.timeout ?? EXTRACT_PAGE_TIMEOUT_MS,
        url: { raw: url, url: new URL(url).href },
      },
      { teamId, deadline, signal },
    );
    if (document === undefined) return { kind: 'skipped', url };
    const credits = document.metadata.creditsUsed;
    const status = document.metadata.statusCode;
    if (status >= 400) return { kind: 'error-status', url, status, credits };
    try {
      return { kind: 'extracted', url, value: cleanPageValue(document.json), credits };
    } catch (err) {
      if (err instanceof TooDeepError) return { kind: 'failed', url, reason: err.message };
      throw err;
    }
  } catch (err) {
    if (err instanceof TabhiveError && err.kind === 'insufficient-credits')
      return { kind: 'no-credits', url };
    if (!(err instanceof TabhiveError))
      log.warn('extract page failed unexpectedly', { url, error: String(err) });
    return { kind: 'failed', url, reason: err instanceof Error ? err.message : String(err) };
  }
}
