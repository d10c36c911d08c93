import { z } from 'zod';

/** The most pages `maxPages` may ask for; a larger PDF is cut there anyway by its own page count. */
export const MAX_PDF_PAGES_OPTION = 10_000;

const OCR_MESSAGE =
  'PDF mode "ocr" is not available: this server reads the text layer of PDFs and has no OCR engine. ' +
  'Use mode "fast" or "auto" (both read the text layer), or leave mode out.';
const BLOCKS_MESSAGE =
  'PDF layout blocks ("blocks": true) are not available: this server reads the text layer of PDFs, ' +
  'which has no block types or bounding boxes. Use "pages": true for the Markdown of each page.';

/**
 * `{ type: "pdf", … }` as the clients send it. `pageMarkdown` is the old name of `pages` (the
 * server reads it where `pages` is absent). OCR and layout blocks need models this server does not have: asking for them is a 400
 * that says so, rather than a response that silently lacks them.
 */
const PdfParser = z
  .strictObject({
    type: z.literal('pdf'),
    /** "fast" and "auto" both read the text layer; "ocr" is refused. */
    mode: z.enum(['fast', 'auto', 'ocr']).optional(),
    /** Parse (and bill) at most this many pages, from the first. */
    maxPages: z.int().min(1).max(MAX_PDF_PAGES_OPTION).optional(),
    /** Fill `document.pages` with the Markdown of each page. */
    pages: z.boolean().optional(),
    /** Deprecated name of `pages`. */
    pageMarkdown: z.boolean().optional(),
    blocks: z.boolean().optional(),
    /** Join pages in `markdown` with `\n\n---\n\n<!-- page N -->\n\n`. */
    pageMarkers: z.boolean().optional(),
  })
  .superRefine((parser, ctx) => {
    if (parser.mode === 'ocr') ctx.addIssue({ code: 'custom', path: ['mode'], message: OCR_MESSAGE });
    if (parser.blocks === true) ctx.addIssue({ code: 'custom', path: ['blocks'], message: BLOCKS_MESSAGE });
  });
export type PdfParser = z.infer<typeof PdfParser>;

/** OCR of raster images: accepted, but an image URL then fails (server/scrape/capture/image-parser.ts). */
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
