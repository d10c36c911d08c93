import type { WebSocket } from 'ws';

/**
 * The largest frame a hub socket may send before its hello is accepted. A launched browser's hello
 * is a few hundred bytes; a donated browser's carries its domain list, at most 500 names of up to
 * 253 characters, so about 130 KB at the very most. Without this bound anyone who can open a socket
 * could make the server buffer a 64 MiB frame per socket (red-team finding M4).
 */
export const PRE_AUTH_MAX_FRAME_BYTES = 256 * 1024;

/**
 * Lets one socket send frames up to `maxBytes`, once the hub knows which browser it is.
 *
 * ws has no documented per-connection limit: `maxPayload` is a WebSocketServer option, which the
 * hub sets to PRE_AUTH_MAX_FRAME_BYTES for every socket. Each socket's receiver keeps its copy in
 * the private `_maxPayload` and checks it against every frame header (ws 8), before it buffers any
 * of the payload; that copy is what this raises. test/unit/hub/frame-limit.test.ts fails if a ws
 * upgrade changes that. Returns false when the receiver does not look as expected, so that the hub
 * can say so instead of letting a browser's large results fail with 1009.
 */
export function raiseFrameLimit(socket: WebSocket, maxBytes: number): boolean {
  const receiver = (socket as unknown as { _receiver?: { _maxPayload?: unknown } | null })._receiver;
  if (receiver === undefined || receiver === null || typeof receiver._maxPayload !== 'number') return false;
  receiver._maxPayload = maxBytes;
  return true;
}
