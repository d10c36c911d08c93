import { posix } from 'node:path';
import type { Log } from '../../platform/log';
import {
  DEFAULT_SCRAPE_TIMEOUT_MS,
  derivationErrors,
  type PageDerivation,
  type PageDeriveOptions,
  runWithDeadline,
} from '../../scrape/derive';
import type { Scraper, ScrapeDocument } from '../../scrape/types';
import type { ResultStore } from '../../platform/store';
import type { PageCapture } from '../../../shared/protocol/messages';
import { ConversionTimeoutError, type DocumentConverter } from './convert/run-conversion';
import { declaredFileKind } from './declared-file-kind';
import { DocumentProblem } from './document-problem';
import { FILE_KINDS } from './file-kinds';
import { parseErrors } from './parse-errors';
import { parseOptionsText } from './parse-options-text';
import type { Upload } from './read-multipart-upload';
import { resolveFileKind } from './resolve-file-kind';
import { sniffContent } from './sniff-content';
import { uploadCapture, uploadScrapeRequest } from './upload-scrape-request';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip/zip-limits';

export interface DocumentParser {
  parse(upload: Upload, teamId: string): Promise<ScrapeDocument>;
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
  return {
    async parse(upload, teamId) {
      const options = parseOptionsText(upload.options);
      const deadlineAt = Date.now() + (options.timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS);
      const { filename, contentType, bytes } = upload.file;
      if (bytes.length === 0) throw parseErrors.badUpload('The uploaded file is empty', ['file']);
      const kind = resolveFileKind(declaredFileKind(filename, contentType), sniff(bytes));
      const label = FILE_KINDS[kind].label;
      const title = posix.basename(filename, posix.extname(filename)) || filename;

      const converted = await converter
        .convert({ bytes, kind, title, zipLimits }, deadlineAt - Date.now())
        .catch((err: unknown) => {
          if (err instanceof ConversionTimeoutError) {
            throw err.ceilingMs === undefined
              ? parseErrors.conversionTimeout()
              : derivationErrors.tooLong(err.ceilingMs);
          }
          throw toApiError(err, label);
        });
      const request = uploadScrapeRequest(options, filename, converted.as === 'html' && kind !== 'html');
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
          contentType: FILE_KINDS[kind].mimeType,
        },
      };
      if (options.zeroDataRetention !== true) {
        await results
          .put({ id: document.metadata.scrapeId, teamId, document })
          .catch((err: unknown) => log.warn('could not keep the parse result', { error: String(err) }));
      }
      return document;
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
