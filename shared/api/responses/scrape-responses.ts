import { z } from 'zod';
import { Document } from './document';

/** `POST /v{1,2}/scrape` and `GET /v{1,2}/scrape/:id` (docs/wire-contract.md §4). */
export const ScrapeResponse = z.object({
  success: z.literal(true),
  data: Document,
  /** Only when `origin` contains "website" (docs/wire-contract.md §1.3). */
  scrape_id: z.string().optional(),
});
