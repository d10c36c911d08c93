import type { ApiOperation } from './api-operation';

const error = (description: string) => ({ description, schema: 'ErrorEnvelope' as const });

/**
 * `POST /v2/parse` (a multipart upload, or JSON naming a staged file's `uploadRef`), the two steps
 * that stage a file (`POST /v2/parse/upload-url`, `PUT /v2/parse/upload/{id}`) and
 * `GET /v2/parse/formats`.
 */
export const parseOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v2/parse',
    summary:
      'Convert an uploaded document (PDF, DOCX, XLSX, PPTX, ODS, HTML, Markdown, CSV, text) to a scrape Document',
    tag: 'v2',
    authenticated: true,
    multipart: {
      parts: {
        file: {
          // No `type`: a part is bytes on the wire, whatever a generator thinks it sends.
          schema: { contentMediaType: 'application/octet-stream' },
          description:
            'The document, with a filename (its extension and Content-Type must agree with its content). At most PARSE_MAX_FILE_BYTES (50 MiB by default).',
        },
        options: {
          schema: {
            contentMediaType: 'application/json',
            contentSchema: { $ref: '#/components/schemas/ParseOptionsV2' },
          },
          description:
            'JSON text of the options (ParseOptionsV2): the v2 scrape options without page work (waitFor, actions, location, mobile, cache options) and formats a document has (no screenshot, changeTracking, branding, audio, video).',
        },
      },
      required: ['file'],
    },
    responses: {
      '200': { description: 'The document, as a scrape answers it', schema: 'ScrapeResponse' },
      '400': error('The multipart body or its options failed validation; `details` says what is wrong'),
      '401': error('Missing or unknown API key'),
      '402': error("The team's credit allowance is spent"),
      '408': error('Converting the document took longer than `timeout` (SCRAPE_TIMEOUT)'),
      '413': error('The file is larger than PARSE_MAX_FILE_BYTES (PAYLOAD_TOO_LARGE)'),
      '415': error(
        'Not multipart, or a file of no supported type or whose name and content disagree (UNSUPPORTED_FILE_TYPE)',
      ),
      '422': error(
        'A broken document (UNREADABLE_DOCUMENT) or one that unpacks beyond the limits (ARCHIVE_LIMIT_EXCEEDED)',
      ),
      '429': error("The team's rate or concurrency limit is reached; see Retry-After"),
      default: error("Any other failure, in Firecrawl's error envelope"),
    },
  },
  {
    method: 'post',
    path: '/v2/parse/upload-url',
    summary: 'Stage a file for parse: where to PUT its bytes, and the uploadRef POST /v2/parse then takes',
    tag: 'v2',
    authenticated: true,
    body: 'ParseUploadUrlRequest',
    responses: {
      '200': {
        description: 'The upload URL and reference (valid 15 minutes)',
        schema: 'ParseUploadUrlResponse',
      },
      '400': error('The body failed validation; `details` says what is wrong'),
      '401': error('Missing or unknown API key'),
      '413': error('`sizeBytes` is larger than PARSE_MAX_FILE_BYTES (PAYLOAD_TOO_LARGE)'),
      '429': error('The team holds as many staged files as it may (TOO_MANY_UPLOADS); see Retry-After'),
      '503': error('The server holds as many staged bytes as it may (UPLOAD_STORAGE_FULL)'),
      default: error("Any other failure, in Firecrawl's error envelope"),
    },
  },
  {
    method: 'put',
    path: '/v2/parse/upload/{id}',
    summary: "A staged file's bytes (no API key: the upload URL's id is its secret)",
    tag: 'v2',
    authenticated: false,
    rawBody: { description: 'The file, as it is; at most PARSE_MAX_FILE_BYTES' },
    responses: {
      '200': {
        description: 'The file is staged for POST /v2/parse with `uploadRef`',
        schema: 'ParseUploadPutResponse',
      },
      '404': error('No staged upload has this id, or it expired'),
      '409': error('The upload already has its file (UPLOAD_ALREADY_COMPLETE)'),
      '413': error('The file is larger than PARSE_MAX_FILE_BYTES (PAYLOAD_TOO_LARGE)'),
      '503': error('The server holds as many staged bytes as it may (UPLOAD_STORAGE_FULL); see Retry-After'),
      default: error("Any other failure, in Firecrawl's error envelope"),
    },
  },
  {
    method: 'get',
    path: '/v2/parse/formats',
    summary: 'The kinds of file POST /v2/parse converts',
    tag: 'v2',
    authenticated: true,
    responses: {
      '200': {
        description: 'The supported kinds, their extensions and types',
        schema: 'ParseFormatsResponse',
      },
      '401': error('Missing or unknown API key'),
      default: error("Any other failure, in Firecrawl's error envelope"),
    },
  },
];
