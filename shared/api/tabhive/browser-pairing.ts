import { z } from 'zod';

/**
 * Tabhive's own routes for donated browsers (Firecrawl has none), under one prefix so they never
 * collide with Firecrawl's. The extension and the server parse these same schemas.
 */
export const BROWSERS_PATH = '/tabhive/v1/browsers';
/** Unauthenticated: the one-time code is the credential. */
export const PAIR_PATH = `${BROWSERS_PATH}/pair`;
/** Authenticated with the device token: a browser unpairs itself. */
export const UNPAIR_PATH = `${BROWSERS_PATH}/unpair`;
/** Authenticated with the device token: a page a person saved goes into the team's search index. */
export const SAVED_PAGES_PATH = '/tabhive/v1/saved-pages';

export const PairRequest = z
  .object({
    code: z.string().min(1).max(64),
    /** What the team's browser list calls this browser. */
    label: z.string().trim().min(1).max(100).optional(),
  })
  .strict();
export type PairRequest = z.infer<typeof PairRequest>;

export const PairResponse = z.object({
  success: z.literal(true),
  browserId: z.string(),
  /** The browser's credential from now on; sent in the first WebSocket message, never in a URL. */
  deviceToken: z.string(),
  team: z.object({ id: z.string(), name: z.string() }),
});
export type PairResponse = z.infer<typeof PairResponse>;

/** A page a person scraped by hand in the extension and saves to the team's search index. */
export const SavedPageRequest = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    title: z.string().max(2_000),
    description: z.string().max(10_000).optional(),
    markdown: z.string().max(5 * 1024 * 1024),
  })
  .strict();
export type SavedPageRequest = z.infer<typeof SavedPageRequest>;

/** Firecrawl's error envelope, as far as the extension reads it. */
export const ErrorResponse = z.object({
  success: z.literal(false),
  code: z.string().optional(),
  error: z.string(),
});
