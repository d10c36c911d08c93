import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Answers a WebSocket upgrade with a plain HTTP error instead of switching protocols, so that a
 * client sees 401 or 404 at the handshake (Playwright's and Puppeteer's connect reject with it).
 * The body is Firecrawl's error shape.
 */
export function refuseUpgrade(socket: Duplex, status: number, error: string): void {
  const body = JSON.stringify({ success: false, error });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The bearer token of an upgrade request's Authorization header (`Bearer <key>`), if any. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const token = request.headers.authorization?.trim().split(/\s+/)[1];
  return token === undefined || token === '' ? undefined : token;
}
