import type { ScrapeV1 } from '../../shared/api/v1/scrape-request';
import type { ResultStore } from '../platform/store';
import type { Log } from '../platform/log';
import type { Scraper } from './types';
import { withJsonKey, type ScrapeDocumentV1 } from './v1-json-key';

export type { ScrapeDocumentV1 } from './v1-json-key';

/**
 * A v1 scrape: the v2 pipeline, then the v1 differences in the document (docs/wire-contract.md §11.1): the
 * extract format answers in `data.extract`, and v1-only warnings join the others. The stored result
 * is replaced by the v1 document, so `GET /v1/scrape/:id` returns exactly what was answered.
 */
export async function scrapeV1(
  { scraper, results, log }: { scraper: Scraper; results: ResultStore; log: Log },
  { request, jsonKey, warnings }: ScrapeV1,
  teamId: string,
): Promise<ScrapeDocumentV1> {
  const document = await scraper.scrape(request, { teamId, admission: 'api' });
  if (jsonKey === 'json' && warnings.length === 0) return document;
  const { warning, ...rest } = withJsonKey(document, jsonKey);
  const allWarnings = [...(warning === undefined ? [] : [warning]), ...warnings];
  const v1: ScrapeDocumentV1 = {
    ...rest,
    ...(allWarnings.length > 0 ? { warning: allWarnings.join(' ') } : {}),
  };
  if (request.zeroDataRetention !== true) {
    await results
      .put({ id: v1.metadata.scrapeId, teamId, document: v1 })
      .catch((err: unknown) => log.warn('could not keep the scrape result', { error: String(err) }));
  }
  return v1;
}
