import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { createHash } from 'node:crypto';
import { ParseUploadRefBody, ParseUploadUrlRequest } from '../../../shared/api/v2/parse-upload';
import {
  type ContinuedWork,
  createContinuedWork,
  createPublicUrl,
  type PublicUrl,
  readJsonBody,
  teamOf,
} from '../http';
import type { Log } from '../../platform/log';
import { parseBody } from '../../platform/input';
import {
  createDocumentParser,
  createDocumentConverter,
  createStagedUploads,
  DEFAULT_STAGED_UPLOAD_LIMITS,
  type DocumentConverter,
  parseFormats,
  MAX_OPTIONS_BYTES,
  readMultipartUpload,
  readRawUpload,
  type StagedUploads,
  type ZipLimits,
} from '../../products/parse';
import type { Scraper, ScrapeContext } from '../../scrape/types';
import type { ResultStore } from '../../platform/store';
import { errors, TabhiveError } from '../../platform/errors';

/** PARSE_MAX_FILE_BYTES's default: Firecrawl's limit for one upload. */
export const DEFAULT_PARSE_MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * `POST /v2/parse` (a document uploaded as multipart/form-data, or as JSON naming a staged
 * upload's `uploadRef`, answered as a scrape's Document), the two-step upload
 * (`POST /v2/parse/upload-url`, then `PUT /v2/parse/upload/:id` with the file's bytes) and
 * `GET /v2/parse/formats`. `authorize` authenticates and counts the request but reads no body:
 * the upload is read here, under its own size limit. A parse past its timeout goes on, and the
 * same request sent again joins it (continued-work.ts).
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
  continued = createContinuedWork(),
  publicUrl = createPublicUrl(undefined),
  staged = createStagedUploads({ maxFileBytes, ...DEFAULT_STAGED_UPLOAD_LIMITS }),
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
  /** Parses that outlived their request, which the same upload sent again joins. */
  continued?: ContinuedWork;
  /** The base of the upload URLs handed out (PUBLIC_URL). */
  publicUrl?: PublicUrl;
  /** Files sent by the two-step upload, until they are parsed or expire. */
  staged?: StagedUploads;
}): Router {
  const parser = createDocumentParser({
    scraper,
    results,
    converter,
    log,
    derive,
    ...(zipLimits === undefined ? {} : { zipLimits }),
  });
  const readJson = readJsonBody({ limitBytes: MAX_OPTIONS_BYTES });
  const router = new Router();

  router.post('/v2/parse', authorize, async (ctx) => {
    const teamId = teamOf(ctx).id;
    const byReference =
      (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
    let ref: string | undefined;
    let upload;
    if (byReference) {
      await readJson(ctx, () => Promise.resolve());
      const body: unknown = ctx.request.body;
      if (typeof body !== 'object' || body === null || !('uploadRef' in body)) {
        throw new TabhiveError(
          'unsupported-media',
          'Unsupported content type "application/json": send multipart/form-data with a "file" part and an optional ' +
            '"options" part, or JSON naming a staged upload\'s "uploadRef" (POST /v2/parse/upload-url)',
          { code: 'UNSUPPORTED_MEDIA_TYPE' },
        );
      }
      const { uploadRef, ...options } = parseBody(ParseUploadRefBody, body);
      ref = uploadRef;
      upload = staged.take(teamId, uploadRef, JSON.stringify(options));
    } else {
      upload = await readMultipartUpload(ctx.req, { maxFileBytes, maxOptionsBytes: MAX_OPTIONS_BYTES });
    }
    // The same file with the same options joins a parse of it that outlived its request.
    const sameUpload = {
      filename: upload.file.filename,
      options: upload.options ?? '',
      sha256: createHash('sha256').update(upload.file.bytes).digest('hex'),
    };
    const data = await continued.run(teamId, sameUpload, parser.timeoutOf(upload), () =>
      parser.parse(upload, teamId, true),
    );
    // A staged file is parsed once: its memory is given back.
    if (ref !== undefined) staged.release(ref);
    ctx.body = { success: true, data };
  });

  router.post('/v2/parse/upload-url', authorize, readJson, (ctx) => {
    const request = parseBody(ParseUploadUrlRequest, ctx.request.body);
    if (request.sizeBytes !== undefined && request.sizeBytes > maxFileBytes) {
      throw errors.payloadTooLarge(maxFileBytes);
    }
    const slot = staged.create(teamOf(ctx).id, request.filename, request.contentType);
    ctx.body = {
      success: true,
      data: {
        uploadId: slot.id,
        uploadRef: slot.id,
        uploadUrl: publicUrl(ctx, `/v2/parse/upload/${slot.id}`),
        method: 'PUT',
        headers: request.contentType === undefined ? {} : { 'content-type': request.contentType },
        maxBytes: maxFileBytes,
        expiresAt: new Date(slot.expiresAt).toISOString(),
      },
    };
  });

  // As a presigned URL: the id it carries is the secret, so the PUT needs no API key.
  router.put('/v2/parse/upload/:id', async (ctx: Context) => {
    const id = ctx.params.id ?? '';
    staged.accepts(id);
    const bytes = await readRawUpload(ctx.req, staged.maxFileBytes);
    const stored = staged.put(id, bytes);
    ctx.body = {
      success: true,
      data: { uploadRef: id, sizeBytes: stored.size, expiresAt: new Date(stored.expiresAt).toISOString() },
    };
  });

  router.get('/v2/parse/formats', authorize, (ctx) => {
    ctx.body = { success: true, data: { formats: parseFormats() } };
  });

  return router;
}
