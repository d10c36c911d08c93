import { z } from 'zod';
import { ReplayEvent } from '../../protocol/session-replay';

/** `GET /v2/browser/:id/replay` (and `/v2/interact/:id/replay`): a session's recorded pages, in Firecrawl's shape. */
export const ReplayPages = z.object({
  success: z.literal(true),
  pages: z.array(
    z.object({
      pageId: z.string(),
      /** Where the page's events are served, relative to the API's origin. */
      url: z.string(),
      /** The address the page was recorded at. */
      pageUrl: z.string(),
      /** Milliseconds from the session's start. */
      startTimeMs: z.int().min(0),
      endTimeMs: z.int().min(0),
    }),
  ),
  pageCount: z.int().min(0),
});
export type ReplayPages = z.infer<typeof ReplayPages>;

/**
 * `GET /v2/browser/:id/replay/:pageId`: one page's rrweb events, in order. Firecrawl serves a
 * video playlist here; Tabhive serves the events, which an rrweb player plays.
 */
export const ReplayPage = z.object({
  success: z.literal(true),
  pageId: z.string(),
  pageUrl: z.string(),
  startTimeMs: z.int().min(0),
  endTimeMs: z.int().min(0),
  events: z.array(ReplayEvent),
});
export type ReplayPage = z.infer<typeof ReplayPage>;
