import { z } from 'zod';

/** The most pages `maxPages` may ask for; a larger PDF is cut there anyway by its own page count. */
export const MAX_PDF_PAGES_OPTION = 10_000;

/**
 * `{ type: "pdf", … }` as the clients send it. `pageMarkdown` is the old name of `pages` (the
 * server reads it where `pages` is absent). `mode`: "fast" reads the text layer only, "auto"
 * (the default) OCRs the pages that have none, "ocr" OCRs every page (docs/extract-parse-llmstxt.md).
 */
const PdfParser = z.strictObject({
  type: z.literal('pdf'),
  mode: z.enum(['fast', 'auto', 'ocr']).optional(),
  /** Parse (and bill) at most this many pages, from the first. */
  maxPages: z.int().min(1).max(MAX_PDF_PAGES_OPTION).optional(),
  /** Fill `document.pages` with the Markdown of each page. */
  pages: z.boolean().optional(),
  /** Deprecated name of `pages`. */
  pageMarkdown: z.boolean().optional(),
  /** Fill `document.blocks` with each page's typed layout blocks. */
  blocks: z.boolean().optional(),
  /** Join pages in `markdown` with `\n\n---\n\n<!-- page N -->\n\n`. */
  pageMarkers: z.boolean().optional(),
});
export type PdfParser = z.infer<typeof PdfParser>;

/** OCR of raster images (PNG, JPEG, GIF, BMP, TIFF, WebP) as one-page documents. */
const ImageParser = z.strictObject({ type: z.literal('image') });

const Parser = z.union([z.literal('pdf'), z.literal('image'), PdfParser, ImageParser]);
export type ParserV2 = z.infer<typeof Parser>;

const parserType = (parser: ParserV2) => (typeof parser === 'string' ? parser : parser.type);

/**
 * v2 `parsers`: `"pdf"`, `"image"` and their object forms, each at most once. Absent means
 * `["pdf"]`; `[]` returns a PDF's bytes as base64 instead of parsing it.
 */
export const ParsersV2 = z
  .array(Parser)
  .superRefine((parsers, ctx) => {
    const types = parsers.map(parserType);
    if (new Set(types).size !== types.length) {
      ctx.addIssue({ code: 'custom', message: 'Each parser may be listed once' });
    }
  })
  .default(() => ['pdf' as const]);
export type ParsersV2 = z.infer<typeof ParsersV2>;
