import { TabhiveError, errors } from '../../platform/errors';

/**
 * The errors of `POST /v2/parse`, declared once with stable codes. An upload is refused for what
 * it is (unsupported media), how big it is (too large) or unpacks to, or how it is broken
 * (unprocessable); a malformed multipart body or options are invalid input in Firecrawl's
 * BAD_REQUEST shape.
 */
export const parseErrors = {
  badUpload: (message: string, path: ReadonlyArray<string | number> = []) =>
    errors.badRequest([{ code: 'custom', message, path: [...path] }]),
  notMultipart: (type: string) =>
    new TabhiveError(
      'unsupported-media',
      `Unsupported content type "${type}": send multipart/form-data with a "file" part and an optional "options" part`,
      { code: 'UNSUPPORTED_MEDIA_TYPE' },
    ),
  // A too-large request's answer closes the connection (the API's error-status.ts).
  fileTooLarge: (limitBytes: number) =>
    new TabhiveError(
      'too-large',
      `The uploaded file is larger than ${limitBytes} bytes (PARSE_MAX_FILE_BYTES)`,
      {
        code: 'PAYLOAD_TOO_LARGE',
      },
    ),
  bodyTooLarge: (limitBytes: number) =>
    new TabhiveError('too-large', `Request body is larger than ${limitBytes} bytes`, {
      code: 'PAYLOAD_TOO_LARGE',
    }),
  unsupportedFileType: (message: string, detected: string) =>
    new TabhiveError('unsupported-media', message, {
      code: 'UNSUPPORTED_FILE_TYPE',
      details: { detectedType: detected },
    }),
  /** The archive inside the document unpacks beyond a limit: a zip bomb, or simply too much. */
  archiveLimit: (message: string) =>
    new TabhiveError('unprocessable', message, { code: 'ARCHIVE_LIMIT_EXCEEDED' }),
  brokenDocument: (kind: string, problem: string) =>
    new TabhiveError('unprocessable', `The ${kind} could not be read: ${problem}`, {
      code: 'UNREADABLE_DOCUMENT',
    }),
  conversionTimeout: () =>
    new TabhiveError('timed-out', 'Converting the document took longer than the timeout', {
      code: 'SCRAPE_TIMEOUT',
    }),
};
