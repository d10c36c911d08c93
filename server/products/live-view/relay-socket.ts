import type { WebSocket } from 'ws';
import type { LiveSession } from '../browser-sessions';
import type { CdpEventSubscriptions } from './cdp-event-subscriptions';
import { createCdpRelayConnection } from './cdp-relay-connection';
import type { RelayNavigationCheck } from './cdp-relay-navigation-check';

/**
 * One relay client's socket joined to a relay connection for its session: text frames are its
 * commands, the connection's messages go back as text, and the socket's end ends the connection.
 * The public relay (cdp-relay.ts) and execute's private one (cdp-relay-private-endpoint.ts) serve
 * their clients the same way.
 */
export function serveRelaySocket(
  ws: WebSocket,
  {
    session,
    subscriptions,
    checkNavigation,
    onError,
  }: {
    session: LiveSession;
    subscriptions: CdpEventSubscriptions;
    checkNavigation: RelayNavigationCheck | undefined;
    onError: (error: Error) => void;
  },
): void {
  const connection = createCdpRelayConnection({
    session,
    subscriptions,
    checkNavigation,
    send: (message) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    },
    close: (code, reason) => ws.close(code, reason),
  });
  ws.on('message', (data, isBinary) => {
    if (!isBinary) connection.receive(data.toString());
  });
  ws.on('close', connection.closed);
  ws.on('error', onError);
}
