import { ApiError } from '../../platform/errors/api-error';

/**
 * The errors of `POST /v2/parse`, declared once with stable codes. An upload is refused for what
 * it is (415), how big it is or unpacks to (413, 422), or how it is broken (422); a malformed
 * multipart body or options are a 400 in Firecrawl's BAD_REQUEST shape.
 */
export const parseErrors = {
  badUpload: (message: string, path: ReadonlyArray<string | number> = []) =>
    new ApiError(400, 'Bad Request', { code: 'BAD_REQUEST', details: [{ code: 'custom', message, path }] }),
  notMultipart: (type: string) =>
    new ApiError(
      415,
      `Unsupported content type "${type}": send multipart/form-data with a "file" part and an optional "options" part`,
      { code: 'UNSUPPORTED_MEDIA_TYPE' },
    ),
  // The rest of the body is not wanted: closing after the answer spares reading it.
  fileTooLarge: (limitBytes: number) =>
    new ApiError(413, `The uploaded file is larger than ${limitBytes} bytes (PARSE_MAX_FILE_BYTES)`, {
      code: 'PAYLOAD_TOO_LARGE',
      headers: { Connection: 'close' },
    }),
  bodyTooLarge: (limitBytes: number) =>
    new ApiError(413, `Request body is larger than ${limitBytes} bytes`, {
      code: 'PAYLOAD_TOO_LARGE',
      headers: { Connection: 'close' },
    }),
  unsupportedFileType: (message: string, detected: string) =>
    new ApiError(415, message, { code: 'UNSUPPORTED_FILE_TYPE', details: { detectedType: detected } }),
  /** The archive inside the document unpacks beyond a limit: a zip bomb, or simply too much. */
  archiveLimit: (message: string) => new ApiError(422, message, { code: 'ARCHIVE_LIMIT_EXCEEDED' }),
  brokenDocument: (kind: string, problem: string) =>
    new ApiError(422, `The ${kind} could not be read: ${problem}`, { code: 'UNREADABLE_DOCUMENT' }),
  conversionTimeout: () =>
    new ApiError(408, 'Converting the document took longer than the timeout', { code: 'SCRAPE_TIMEOUT' }),
};
