import { z } from 'zod';
import { FILE_KINDS, type FileKind } from './file-kinds';

/** `GET /v2/parse/formats`, in the shape firecrawl-py's `get_parse_formats` reads. */
export const ParseFormatsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    formats: z.array(
      z.object({
        format: z.string(),
        kind: z.enum(['document', 'image']),
        extensions: z.array(z.string()),
        mimeTypes: z.array(z.string()),
        available: z.literal(true),
      }),
    ),
  }),
});
export type ParseFormatsResponse = z.infer<typeof ParseFormatsResponse>;

/** The kinds of file `POST /v2/parse` converts. */
export function parseFormats(): ParseFormatsResponse['data']['formats'] {
  return (Object.entries(FILE_KINDS) as Array<[FileKind, (typeof FILE_KINDS)[FileKind]]>).map(
    ([format, info]) => ({
      format,
      kind: format === 'image' ? 'image' : 'document',
      extensions: [...info.extensions],
      mimeTypes: [info.mimeType, ...info.otherMimeTypes],
      available: true,
    }),
  );
}
