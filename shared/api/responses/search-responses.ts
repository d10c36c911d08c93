import { z } from 'zod';
import { Document } from './document';

/** A web result: its search fields, and the scraped document's keys when scrapeOptions asked for formats. */
const WebResult = Document.partial().extend({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  position: z.int().optional(),
  category: z.string().optional(),
});

const NewsResult = Document.partial().extend({
  title: z.string().optional(),
  url: z.string().optional(),
  snippet: z.string().optional(),
  date: z.string().optional(),
  imageUrl: z.string().optional(),
  position: z.int().optional(),
  category: z.string().optional(),
});

const ImageResult = z.looseObject({
  title: z.string().optional(),
  imageUrl: z.string().optional(),
  imageWidth: z.int().optional(),
  imageHeight: z.int().optional(),
  url: z.string().optional(),
  position: z.int().optional(),
});

/** `POST /v2/search` (docs/wire-contract.md §13.2): a key per source that found something. */
export const SearchResponseV2 = z.object({
  success: z.literal(true),
  data: z.object({
    web: z.array(WebResult).optional(),
    news: z.array(NewsResult).optional(),
    images: z.array(ImageResult).optional(),
  }),
  creditsUsed: z.int(),
  warning: z.string().optional(),
});

/** `POST /v1/search` (docs/wire-contract.md §11.5): the web results as an array. */
export const SearchResponseV1 = z.object({
  success: z.literal(true),
  data: z.array(WebResult),
  warning: z.string().optional(),
});
