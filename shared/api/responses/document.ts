import { z } from 'zod';
import { PageBlocks } from './page-blocks';
import { MenuProfile, ProductProfile } from './page-profiles';

/**
 * What the wire carries for one scraped page (docs/wire-contract.md §3.5), as documentation and for response
 * checks. Loose: formats add their own keys (v1's `extract`), and metadata carries the page's meta
 * tags under their own names.
 */
export const DocumentMetadata = z.looseObject({
  sourceURL: z.string(),
  url: z.string(),
  statusCode: z.int(),
  scrapeId: z.string(),
  creditsUsed: z.number(),
  proxyUsed: z.enum(['basic', 'stealth']),
  contentType: z.string().optional(),
  error: z.string().optional(),
});

export const Document = z.looseObject({
  markdown: z.string().optional(),
  html: z.string().optional(),
  rawHtml: z.string().optional(),
  links: z.array(z.string()).optional(),
  images: z.array(z.string()).optional(),
  screenshot: z.string().optional(),
  summary: z.string().optional(),
  json: z.unknown().optional(),
  actions: z.looseObject({}).optional(),
  changeTracking: z.looseObject({}).optional(),
  branding: z.looseObject({}).optional(),
  /** The attributes format: each selector's attribute values, in document order. */
  attributes: z
    .array(z.object({ selector: z.string(), attribute: z.string(), values: z.array(z.string()) }))
    .optional(),
  /** The highlights format: the best passages, verbatim, separated by blank lines. */
  highlights: z.string().optional(),
  /** The question format, or the query format. */
  answer: z.string().optional(),
  product: ProductProfile.optional(),
  menu: MenuProfile.optional(),
  /** The URL of the page's audio or video file. */
  audio: z.string().optional(),
  video: z.string().optional(),
  /** A PDF's pages, with the PDF parser's `pages: true`. */
  pages: z.array(z.object({ pageNumber: z.int(), markdown: z.string() })).optional(),
  /** A PDF's typed layout blocks per page, with the PDF parser's `blocks: true`. */
  blocks: z.array(PageBlocks).optional(),
  warning: z.string().optional(),
  metadata: DocumentMetadata,
});
