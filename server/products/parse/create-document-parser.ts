import { posix } from 'node:path';
import type { Log } from '../../platform/log';
import {
  CONTINUED_WORK_CEILING_MS,
  DEFAULT_SCRAPE_TIMEOUT_MS,
  derivationErrors,
  type PageDerivation,
  type PageDeriveOptions,
  requestedParsers,
  runWithDeadline,
  WorkContinues,
} from '../../scrape/derive';
import { clampTimerMs } from '../../platform/time';
import type { Scraper, ScrapeDocument } from '../../scrape/types';
import type { ResultStore } from '../../platform/store';
import type { PageCapture } from '../../../shared/protocol/messages';
import { ConversionTimeoutError, type DocumentConverter } from './convert/run-conversion';
import { declaredFileKind } from './declared-file-kind';
import { DocumentProblem } from './document-problem';
import { FILE_KINDS } from './file-kinds';
import { parseErrors } from './parse-errors';
import { namesParsers, parseOptionsText } from './parse-options-text';
import type { Upload } from './read-multipart-upload';
import { resolveFileKind } from './resolve-file-kind';
import { sniffContent } from './sniff-content';
import { uploadCapture, uploadScrapeRequest } from './upload-scrape-request';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip/zip-limits';

export interface DocumentParser {
  /**
   * With `continuable` (the caller can come back for it), a parse still running at its timeout
   * goes on, to CONTINUED_WORK_CEILING_MS, and fails at once with WorkContinues.
   */
  parse(upload: Upload, teamId: string, continuable?: boolean): Promise<ScrapeDocument>;
  /** How long the caller waits for this upload's parse: its options' `timeout`. */
  timeoutOf(upload: Upload): number;
}

/**
 * `/v2/parse` as a domain verb: the options are validated, the upload's kind found from its
 * content and checked against its name and type, the document converted (in a worker thread,
 * within the zip limits and the timeout) and handed to the scrape pipeline as a capture, which
 * makes the formats (with `derive`, in the document pool: never in the workers scrapes need) and
 * books the credits as for one scraped page. The whole parse answers within its `timeout`. The
 * document is kept for `GET /v2/scrape/:id` as a scrape's is, unless zeroDataRetention.
 */
export function createDocumentParser({
  scraper,
  results,
  converter,
  log,
  zipLimits = DEFAULT_ZIP_LIMITS,
  derive,
}: {
  /** The API's scraper: charging and team concurrency included. */
  scraper: Scraper;
  results: ResultStore;
  converter: DocumentConverter;
  log: Log;
  zipLimits?: ZipLimits;
  /** Where uploads' formats are made; without it, where the scraper makes every page's. */
  derive?: ((capture: PageCapture, options: PageDeriveOptions) => Promise<PageDerivation>) | undefined;
}): DocumentParser {
  /** The parse itself, to `deadlineAt`. */
  async function parseBy(
    upload: Upload,
    options: ReturnType<typeof parseOptionsText>,
    teamId: string,
    deadlineAt: number,
  ): Promise<ScrapeDocument> {
    const { filename, contentType, bytes } = upload.file;
    if (bytes.length === 0) throw parseErrors.badUpload('The uploaded file is empty', ['file']);
    const sniffed = sniff(bytes);
    const kind = resolveFileKind(declaredFileKind(filename, contentType), sniffed);
    const ocrImages = requestedParsers(options.parsers).image || !namesParsers(upload.options);
    const label = FILE_KINDS[kind].label;
    const title = posix.basename(filename, posix.extname(filename)) || filename;

    const converted = await converter
      .convert({ bytes, kind, title, zipLimits, ocrImages }, deadlineAt - Date.now())
      .catch((err: unknown) => {
        if (err instanceof ConversionTimeoutError) {
          throw err.ceilingMs === undefined
            ? parseErrors.conversionTimeout()
            : derivationErrors.tooLong(err.ceilingMs);
        }
        throw toApiError(err, label);
      });
    const request = {
      ...uploadScrapeRequest(options, filename, converted.as === 'html' && kind !== 'html'),
      // What is left of the parse's time (more than `timeout` when the parse goes on past it).
      timeout: Math.max(1, deadlineAt - Date.now()),
    };
    const scraped = await runWithDeadline(
      deadlineAt,
      () =>
        scraper.scrape(request, {
          teamId,
          admission: 'api',
          capture: uploadCapture(converted, filename, bytes),
          // Kept below, once the metadata speaks of the file; an upload joins neither /map nor /search.
          keepResult: false,
          indexPage: false,
          ...(derive === undefined ? {} : { derive }),
        }),
      teamId,
    );
    const document: ScrapeDocument = {
      ...scraped,
      metadata: {
        ...scraped.metadata,
        title:
          typeof scraped.metadata.title === 'string' && scraped.metadata.title !== ''
            ? scraped.metadata.title
            : title,
        sourceURL: filename,
        // An image keeps its own type (image/jpeg, image/webp, …), which the kind does not say.
        contentType: kind === 'image' ? sniffed.mimeType : FILE_KINDS[kind].mimeType,
      },
    };
    if (options.zeroDataRetention !== true) {
      await results
        .put({ id: document.metadata.scrapeId, teamId, document })
        .catch((err: unknown) => log.warn('could not keep the parse result', { error: String(err) }));
    }
    return document;
  }

  return {
    async parse(upload, teamId, continuable = false) {
      const options = parseOptionsText(upload.options);
      const timeoutMs = options.timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS;
      if (!continuable) return parseBy(upload, options, teamId, Date.now() + timeoutMs);
      const running = parseBy(
        upload,
        options,
        teamId,
        Date.now() + Math.max(timeoutMs, CONTINUED_WORK_CEILING_MS),
      );
      let timer: NodeJS.Timeout | undefined;
      const answerBy = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new WorkContinues(running)), clampTimerMs(timeoutMs));
      });
      running.catch(() => undefined);
      return Promise.race([running, answerBy]).finally(() => clearTimeout(timer));
    },
    timeoutOf(upload) {
      return parseOptionsText(upload.options).timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS;
    },
  };
}

function sniff(bytes: Uint8Array) {
  try {
    return sniffContent(bytes);
  } catch (err) {
    throw toApiError(err, 'zip archive');
  }
}

/** A converter's DocumentProblem as the API answers it; anything else is left as it is. */
function toApiError(err: unknown, label: string): unknown {
  if (!(err instanceof DocumentProblem)) return err;
  switch (err.kind) {
    case 'broken':
      return parseErrors.brokenDocument(label, err.message);
    case 'archive-limit':
      return parseErrors.archiveLimit(`The ${label} is refused: ${err.message}`);
    case 'unsupported':
      return parseErrors.unsupportedFileType(`The ${label} cannot be converted: ${err.message}`, label);
  }
}
