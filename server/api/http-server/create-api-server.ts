import type * as Http from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';

// Required, not imported: as an ES module node:http reads every one of its exports, lazy ones
// included, which loads Node's own copy of undici at start for nothing (20-70 ms of a cold start).
const { createServer } = createRequire(import.meta.url)('node:http') as typeof Http;

/**
 * How long a client may take to send a whole request, headers and body, in ms. Node's default of
 * 300 s lets anyone hold a connection (and a file descriptor) open for five minutes by trickling a
 * body, before authentication too. A 10 MiB body, the largest accepted, still has a minute at
 * about 1.4 Mbit/s. The answer's own time (a 5-minute scrape) does not count.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Headers come in one go from real clients. */
export const HEADERS_TIMEOUT_MS = 20_000;
/** Node checks the deadlines at this interval (30 s by default, which would add half a minute). */
const CHECK_INTERVAL_MS = 5_000;

/**
 * The HTTP server the API and the WebSockets listen on, with deadlines for slow clients. Past one,
 * Node answers 408 and closes the connection. Tests pass shorter deadlines.
 */
export function createApiServer({
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
  headersTimeoutMs = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
}: { requestTimeoutMs?: number; headersTimeoutMs?: number } = {}): Server {
  return createServer({
    requestTimeout: requestTimeoutMs,
    headersTimeout: headersTimeoutMs,
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, Math.ceil(headersTimeoutMs / 2)),
  });
}
