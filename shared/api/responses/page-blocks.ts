import { z } from 'zod';

/**
 * Typed layout blocks of one page (`document.blocks`, with the PDF parser's `blocks: true`), as
 * Firecrawl's clients declare them (PdfPageBlocks, PdfBlockItem). `bbox` is [left, top, right,
 * bottom] in PDF points from the page's top-left corner; `markdownSpan` is where `content` stands
 * in `document.markdown` ([start, end) in UTF-16 code units), null where it does not stand there
 * as it is.
 */
export const PageBlockItem = z.object({
  id: z.string(),
  type: z.enum(['heading', 'paragraph', 'list', 'table', 'image']),
  label: z.string().nullable(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  content: z.string(),
  markdownSpan: z.tuple([z.int(), z.int()]).nullable(),
  readingOrder: z.int(),
  source: z.string().nullable(),
  confidence: z.object({ layout: z.number().nullable(), ocr: z.number().nullable() }),
});
export type PageBlockItem = z.infer<typeof PageBlockItem>;

export const PageBlocks = z.object({
  pageNumber: z.int(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  status: z.string(),
  items: z.array(PageBlockItem),
});
export type PageBlocks = z.infer<typeof PageBlocks>;
