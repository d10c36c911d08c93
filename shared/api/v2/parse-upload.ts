import { z } from 'zod';

/** Characters a staged upload's file name may hold: a name, not a path or a control sequence. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const FILE_NAME = /^[^\u0000-\u001f\u007f/\\]{1,255}$/;

/**
 * `POST /v2/parse/upload-url`: the first of parse's two steps for files sent apart from the
 * request (docs/extract-parse-llmstxt.md). The file's name decides its declared kind as a
 * multipart upload's does; `sizeBytes`, when given, is checked against the limit before any byte
 * is sent.
 */
export const ParseUploadUrlRequest = z.strictObject({
  filename: z.string().regex(FILE_NAME, { error: 'filename must be a file name of 1–255 characters' }),
  contentType: z.string().max(255).optional(),
  sizeBytes: z.int().min(1).optional(),
  origin: z.string().max(255).optional(),
  integration: z.string().max(255).optional(),
});
export type ParseUploadUrlRequest = z.infer<typeof ParseUploadUrlRequest>;

/** The answer: where to PUT the file, and the reference `POST /v2/parse` takes as `uploadRef`. */
export const ParseUploadUrlResponse = z.object({
  success: z.literal(true),
  data: z.object({
    uploadId: z.string(),
    uploadRef: z.string(),
    uploadUrl: z.string(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    maxBytes: z.int(),
    expiresAt: z.string(),
  }),
});

/** `POST /v2/parse` as JSON: a staged upload's reference and the parse options beside it. */
export const ParseUploadRefBody = z.looseObject({ uploadRef: z.string().min(1).max(200) });

/** `PUT /v2/parse/upload/:id`'s answer: the file is staged for `POST /v2/parse` with `uploadRef`. */
export const ParseUploadPutResponse = z.object({
  success: z.literal(true),
  data: z.object({ uploadRef: z.string(), sizeBytes: z.int(), expiresAt: z.string() }),
});
