import { z } from 'zod';

/** The three addresses every running session answers with (server/products/live-view/live-view-urls.ts). */
const SessionUrls = {
  /** The session tab's Chrome DevTools Protocol relay (WebSocket, `Authorization: Bearer <key>`). */
  cdpUrl: z.string(),
  /** A page that shows the tab live; it asks for the team's API key. */
  liveViewUrl: z.string(),
  /** The same page, passing a person's clicks and keys to the tab. */
  interactiveLiveViewUrl: z.string(),
};

/** `POST /v2/browser`. */
export const BrowserCreated = z.object({
  success: z.literal(true),
  id: z.string(),
  ...SessionUrls,
  expiresAt: z.string(),
});

/** `POST /v2/browser/{id}/execute` and `POST /v2/scrape/{id}/interact`. */
export const BrowserExecuted = z.object({
  success: z.boolean(),
  ...z.object(SessionUrls).partial().shape,
  output: z.string().optional(),
  stdout: z.string(),
  /** The code's value: text as it is, anything else as JSON. */
  result: z.string(),
  stderr: z.string(),
  /** 0 when the code ran through, 1 when it threw, 124 when it ran out of time. */
  exitCode: z.int(),
  killed: z.boolean(),
  truncated: z.boolean().optional(),
  error: z.string().optional(),
});

/** `GET /v2/browser`. */
export const BrowserList = z.object({
  success: z.literal(true),
  sessions: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      ...SessionUrls,
      streamWebView: z.boolean(),
      createdAt: z.string(),
      lastActivity: z.string(),
    }),
  ),
});

/** `DELETE /v2/browser/{id}` and `DELETE /v2/scrape/{id}/interact`. */
export const BrowserDeleted = z.object({
  success: z.literal(true),
  status: z.string(),
  sessionDurationMs: z.int().min(0),
  creditsBilled: z.int().min(0),
});
