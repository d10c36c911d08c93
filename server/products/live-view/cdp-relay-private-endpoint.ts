import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveSession } from '../browser-sessions';
import type { CdpEventSubscriptions } from './cdp-event-subscriptions';
import type { RelayNavigationCheck } from './cdp-relay-navigation-check';
import { serveRelaySocket } from './relay-socket';

/** Largest command the server's own Playwright sends (its injected scripts are a few hundred KiB). */
const MAX_COMMAND_BYTES = 16 * 1024 * 1024;

/** A relay endpoint for one session and one client, on loopback behind an unguessable path. */
export interface PrivateCdpEndpoint {
  /** `ws://127.0.0.1:<port>/<secret>`: Playwright's connectOverCDP target. */
  readonly url: string;
  /** Disconnects the client (its pending commands fail) and stops listening. */
  close(): Promise<void>;
}

/**
 * The session's relay for the server's own Playwright client (execute's sandbox,
 * docs/browser-sessions.md#execute): the same relay connection a cdpUrl client gets (the same
 * one-tab view, the tab's allowlist, the URL policy on navigations), served on 127.0.0.1 at a
 * random port and a 256-bit path, for the first client only. It needs no API key because nobody
 * outside this process learns the path, and it can name no other session: the session is fixed
 * here.
 */
export async function openPrivateCdpEndpoint({
  session,
  subscriptions,
  checkNavigation,
}: {
  session: LiveSession;
  subscriptions: CdpEventSubscriptions;
  checkNavigation: RelayNavigationCheck | undefined;
}): Promise<PrivateCdpEndpoint> {
  const secret = `/${randomBytes(32).toString('hex')}`;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_COMMAND_BYTES });
  const server = createServer((_request, response) => response.writeHead(404).end());
  let client: WebSocket | undefined;
  server.on('upgrade', (request, socket, head) => {
    if (client !== undefined || request.url !== secret) {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      client = ws;
      // A socket error is followed by its close, which ends the connection.
      serveRelaySocket(ws, { session, subscriptions, checkNavigation, onError: () => undefined });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}${secret}`,
    async close() {
      client?.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
