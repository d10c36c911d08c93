import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Keyring } from '../../platform/auth';
import type { LiveSession, LiveSessionDirectory } from '../browser-sessions';
import type { Log } from '../../platform/log';
import type { UrlPolicy } from '../../platform/url-policy';
import { createCdpEventSubscriptions } from './cdp-event-subscriptions';
import { openPrivateCdpEndpoint } from './cdp-relay-private-endpoint';
import { relayNavigationCheck } from './cdp-relay-navigation-check';
import { bearerToken, refuseUpgrade } from './refuse-upgrade';
import { serveRelaySocket } from './relay-socket';

const CDP_RELAY_PATH = /^\/v2\/browser\/([^/]+)\/cdp$/;

/** Whether an upgrade request is for a browser session's cdpUrl. */
export const isCdpRelayPath = (pathname: string) => CDP_RELAY_PATH.test(pathname);

/** Largest command a client may send (Playwright's injected scripts are a few hundred KiB). */
const MAX_COMMAND_BYTES = 16 * 1024 * 1024;

/**
 * A browser session's cdpUrl (`/v2/browser/:id/cdp`): a Chrome DevTools Protocol endpoint for the
 * session's one tab, for Playwright's `connectOverCDP` and Puppeteer's `connect`. The team's API
 * key comes in `Authorization: Bearer` (both clients send headers); a missing or unknown key is
 * refused with 401 at the handshake, a session of another team (or none) with 404.
 */
export function createCdpRelay({
  keyring,
  sessions,
  log,
  urlPolicy,
}: {
  keyring: Keyring;
  sessions: LiveSessionDirectory;
  log: Log;
  /** Checks relay navigations before the tab is asked; without it, the tab's own checks only. */
  urlPolicy?: UrlPolicy | undefined;
}) {
  const checkNavigation = urlPolicy === undefined ? undefined : relayNavigationCheck(urlPolicy);
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_COMMAND_BYTES });
  const subscriptions = createCdpEventSubscriptions();

  return {
    async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
      const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
      const id = decodeURIComponent(CDP_RELAY_PATH.exec(pathname)?.[1] ?? '');
      const key = bearerToken(request);
      if (key === undefined) return refuseUpgrade(socket, 401, 'Unauthorized: Token missing');
      const team = await keyring.findTeam(key).catch(() => undefined);
      if (team === undefined) return refuseUpgrade(socket, 401, 'Unauthorized: Invalid token');
      const session = sessions.get(id, team.id);
      if (session === undefined) return refuseUpgrade(socket, 404, 'Browser session not found');
      server.handleUpgrade(request, socket, head, (ws) =>
        serveRelaySocket(ws, {
          session,
          subscriptions,
          checkNavigation,
          onError: (err) => log.info('cdp relay socket error', { session: session.id, error: err.message }),
        }),
      );
    },
    /** The session's relay for the server's own Playwright (execute's sandbox), on a private loopback path. */
    openPrivateEndpoint: (session: LiveSession) =>
      openPrivateCdpEndpoint({ session, subscriptions, checkNavigation }),
    close() {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}

export type CdpRelay = ReturnType<typeof createCdpRelay>;
