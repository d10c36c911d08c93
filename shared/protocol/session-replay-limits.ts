/**
 * The bounds of a session's replay (session-replay.ts), without zod: the recorder that runs in
 * the page (extension/page/replay-recorder.ts) imports these and nothing heavier.
 */

/** The port a recorder in a session tab's page opens to the extension's worker. */
export const REPLAY_PORT_NAME = 'tabhive-replay';

/** Pages (documents) one session records at most; later ones are not recorded. */
export const MAX_REPLAY_PAGES = 200;
/** Events one batch carries at most. */
export const MAX_REPLAY_BATCH_EVENTS = 500;
/**
 * A batch's events, as JSON, at most (characters). A full snapshot of a large page can be
 * megabytes; one larger than this is dropped whole (the page then has no replay).
 */
export const MAX_REPLAY_BATCH_CHARS = 8 * 1024 * 1024;
/** What the server stores for one session at most (characters of JSON); later events are dropped. */
export const MAX_REPLAY_SESSION_CHARS = 64 * 1024 * 1024;
