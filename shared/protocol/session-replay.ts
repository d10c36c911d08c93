import { z } from 'zod';
import { MAX_REPLAY_BATCH_EVENTS, MAX_REPLAY_PAGES } from './session-replay-limits';

/**
 * A session's replay: rrweb events recorded in a session's tab (extension/sessions/replay-*.ts),
 * sent to the server in batches as `session-event`s of kind `replay`, stored per page
 * (docs/browser-sessions.md#replay). The bounds here are checked on both ends.
 */

export {
  MAX_REPLAY_BATCH_CHARS,
  MAX_REPLAY_BATCH_EVENTS,
  MAX_REPLAY_PAGES,
  MAX_REPLAY_SESSION_CHARS,
  REPLAY_PORT_NAME,
} from './session-replay-limits';

/**
 * One rrweb event (`eventWithTime`): its type (2 is a full snapshot, 3 an incremental change, 4
 * the page's meta), its data, and when it happened (ms since the epoch, the page's clock).
 */
export const ReplayEvent = z.object({
  type: z.number().int().min(0).max(10),
  data: z.unknown(),
  timestamp: z.number().finite().nonnegative(),
});
export type ReplayEvent = z.infer<typeof ReplayEvent>;

/** A batch of one page's events, as the recorder in the page posts it to the worker. */
export const ReplayBatch = z.object({
  events: z.array(ReplayEvent).min(1).max(MAX_REPLAY_BATCH_EVENTS),
});
export type ReplayBatch = z.infer<typeof ReplayBatch>;

/** The `replay` session event: one batch of one page of the session. */
export const ReplaySessionEvent = z.object({
  kind: z.literal('replay'),
  /** The page's number in the session, from 0, in the order the pages started. */
  pageId: z
    .number()
    .int()
    .min(0)
    .max(MAX_REPLAY_PAGES - 1),
  /** The address the page was recorded at. */
  pageUrl: z.string().max(8192),
  events: ReplayBatch.shape.events,
});
export type ReplaySessionEvent = z.infer<typeof ReplaySessionEvent>;
