import Router from '@koa/router';
import type { Middleware } from 'koa';
import { teamOf } from '../http';
import type { Log } from '../../platform/log';
import {
  createDocumentParser,
  createDocumentConverter,
  type DocumentConverter,
  parseFormats,
  MAX_OPTIONS_BYTES,
  readMultipartUpload,
  type ZipLimits,
} from '../../products/parse';
import type { Scraper, ScrapeContext } from '../../scrape/types';
import type { ResultStore } from '../../platform/store';

/** PARSE_MAX_FILE_BYTES's default: Firecrawl's limit for one upload. */
export const DEFAULT_PARSE_MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * `POST /v2/parse` (a document uploaded as multipart/form-data, answered as a scrape's Document)
 * and `GET /v2/parse/formats`. `authorize` authenticates and counts the request but reads no body:
 * the upload is read here, under its own size limit.
 */
export function parseRoutes({
  scraper,
  results,
  authorize,
  log,
  maxFileBytes = DEFAULT_PARSE_MAX_FILE_BYTES,
  zipLimits,
  converter = createDocumentConverter({
    onUnexpected: (message) => log.warn('a document converter failed on an upload', { error: message }),
  }),
  derive,
}: {
  scraper: Scraper;
  results: ResultStore;
  authorize: Middleware;
  log: Log;
  maxFileBytes?: number | undefined;
  zipLimits?: ZipLimits;
  converter?: DocumentConverter;
  /** Where uploads' formats are made (the document pool), apart from the scrapes' workers. */
  derive?: ScrapeContext['derive'];
}): Router {
  const parser = createDocumentParser({
    scraper,
    results,
    converter,
    log,
    derive,
    ...(zipLimits === undefined ? {} : { zipLimits }),
  });
  const router = new Router();

  router.post('/v2/parse', authorize, async (ctx) => {
    const upload = await readMultipartUpload(ctx.req, { maxFileBytes, maxOptionsBytes: MAX_OPTIONS_BYTES });
    ctx.body = { success: true, data: await parser.parse(upload, teamOf(ctx).id) };
  });

  router.get('/v2/parse/formats', authorize, (ctx) => {
    ctx.body = { success: true, data: { formats: parseFormats() } };
  });

  return router;
}
