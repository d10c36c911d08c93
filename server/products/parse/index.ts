/** Parse: uploaded documents (PDF, Office, HTML, text) converted and made into formats like a page. */
export { createDocumentConverter } from './convert/run-conversion';
export type { DocumentConverter } from './convert/run-conversion';
export { createDocumentParser } from './create-document-parser';
export { ParseFormatsResponse, parseFormats } from './parse-formats';
export { MAX_OPTIONS_BYTES, readMultipartUpload } from './read-multipart-upload';
export { UPLOAD_ORIGIN } from './upload-scrape-request';
export type { ZipLimits } from './zip/zip-limits';
export { readRawUpload } from './read-raw-upload';
export { createStagedUploads, DEFAULT_STAGED_UPLOAD_LIMITS } from './staged-uploads';
export type { StagedUploads, StagedUploadLimits } from './staged-uploads';
