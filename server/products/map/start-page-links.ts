import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { extractLinks } from '../../../shared/html/extract-links';
import type { Egress } from '../../platform/egress';
import type { Log } from '../../platform/log';
import type { Scraper } from '../../scrape/types';
import type { MapIndexRecorder } from './create-map-index-recorder';
import type { MapLink } from './map-link';

const MAX_PAGE_BYTES = 5 * 1024 * 1024;

/**
 * The start page and the links on it (docs/wire-contract.md §12.3: a map is useful without a search engine).
 * The page goes through the scrape pipeline, so a cached capture answers at once and a fresh one
 * is rendered by a browser (links added by scripts count); the scraper records it in the map
 * index. Without a browser, or when the page fails there, a plain fetch through the egress stands in.
 */
export async function startPageLinks({
  scraper,
  egress,
  recorder,
  log,
  start,
  teamId,
  timeoutMs,
  location,
  plainFallback = true,
}: {
  scraper: Scraper;
  egress: Egress;
  recorder: MapIndexRecorder;
  log: Log;
  start: URL;
  teamId: string;
  timeoutMs: number;
  location: ScrapeOptionsV2['location'];
  /** Whether a plain fetch by the server may stand in when the scrape fails. */
  plainFallback?: boolean;
}): Promise<MapLink[]> {
  try {
    const request = ScrapeRequestV2.parse({
      url: start.href,
      formats: ['links'],
      onlyMainContent: false,
      timeout: timeoutMs,
      ...(location === undefined ? {} : { location }),
    });
    const document = await scraper.scrape(request, {
      teamId,
      admission: 'product-request',
      keepResult: false,
    });
    const { title, description } = document.metadata;
    if (document.metadata.statusCode < 400) {
      return [
        {
          url: document.metadata.url,
          ...(typeof title === 'string' && title !== '' ? { title } : {}),
          ...(typeof description === 'string' && description !== '' ? { description } : {}),
        },
        ...(document.links ?? []).map((url) => ({ url })),
      ];
    }
    return [];
  } catch (err) {
    if (!plainFallback) {
      log.info('map: the start page could not be scraped', {
        url: start.href,
        error: err instanceof Error ? err.message : String(err),
      });
      return [];
    }
    log.info('map: the start page could not be scraped; fetching it plainly', {
      url: start.href,
      error: err instanceof Error ? err.message : String(err),
    });
  }
  try {
    const response = await egress.get(start.href, { timeoutMs, maxBytes: MAX_PAGE_BYTES });
    const type = String(response.headers['content-type'] ?? '');
    if (response.status >= 400 || !type.includes('html')) return [];
    const links = extractLinks(response.body, response.url);
    // A plain anonymous fetch: what anyone gets, shared as the scraper shares such pages.
    void recorder.recordPage({ url: response.url, links, teamId, shared: true });
    return [{ url: response.url }, ...links.map((url) => ({ url }))];
  } catch {
    return [];
  }
}
