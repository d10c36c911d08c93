import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Keyring } from '../../platform/auth';
import type { LiveSession, LiveSessionDirectory } from '../browser-sessions';
import type { Log } from '../../platform/log';
import { createInputQueue, type InputQueue } from './input-queue';
import { refuseUpgrade } from './refuse-upgrade';
import { createScreencastFanout, type ScreencastFanout, type Viewer } from './screencast-fanout';
import { ViewerCloseCode, ViewerMessage, addressFromBar } from './viewer-messages';

/** `/live/<token>/socket` (LIVE_VIEW_PATH_PREFIX), written out: regular expressions are never built at run time. */
const SOCKET_PATH = /^\/live\/([A-Za-z0-9_-]{1,200})\/socket$/;

/** Whether an upgrade request is for a live view's socket. */
export const isLiveViewSocketPath = (pathname: string) => SOCKET_PATH.test(pathname);

/** Time the page has to send the key once the socket is open. */
const AUTH_TIMEOUT_MS = 60_000;
/** Viewer messages are small: input events, a typed text of at most 10,000 characters. */
const MAX_VIEWER_MESSAGE_BYTES = 128 * 1024;
const NAVIGATE_TIMEOUT_MS = 30_000;

/**
 * The live view's socket (`/live/:token/socket`). The page's first message carries the team's API
 * key; a key of another team than the session's is refused (4403), as is a socket for a token no
 * running session has (404 at the handshake). Then the tab's screencast frames flow to the page,
 * and for the interactive token the page's mouse, keys, typed text and address bar flow back to the
 * tab. The watching token's socket refuses input. Everything the page sends counts as activity.
 */
export function createLiveViewSocket({
  keyring,
  sessions,
  log,
}: {
  keyring: Keyring;
  sessions: LiveSessionDirectory;
  log: Log;
}) {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_VIEWER_MESSAGE_BYTES });
  const fanouts = new Map<LiveSession, ScreencastFanout>();
  const inputQueues = new WeakMap<LiveSession, InputQueue>();

  const fanoutOf = (session: LiveSession) => {
    let fanout = fanouts.get(session);
    if (fanout === undefined) {
      fanout = createScreencastFanout({ session, log });
      fanouts.set(session, fanout);
    }
    return fanout;
  };
  const inputQueueOf = (session: LiveSession) => {
    let queue = inputQueues.get(session);
    if (queue === undefined) {
      queue = createInputQueue(session);
      inputQueues.set(session, queue);
    }
    return queue;
  };

  const serve = (ws: WebSocket, session: LiveSession, interactive: boolean) => {
    const send = (message: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const viewer: Viewer = {
      frame: ({ kind: _kind, ...frame }) => send({ type: 'frame', ...frame }),
      navigated: ({ url, title }) => send({ type: 'navigated', url, title }),
    };
    let authorized = false;
    let watching = false;
    const authTimer = setTimeout(() => ws.close(ViewerCloseCode.UNAUTHORIZED, 'no API key'), AUTH_TIMEOUT_MS);
    authTimer.unref();

    const leave = () => {
      clearTimeout(authTimer);
      if (!watching) return;
      watching = false;
      if (fanouts.get(session)?.remove(viewer) === true) fanouts.delete(session);
    };
    void session.ended.then(() => {
      leave();
      if (ws.readyState === ws.OPEN) ws.close(ViewerCloseCode.ENDED, 'the browser session ended');
    });

    const authorize = async (apiKey: string) => {
      const team = await keyring.findTeam(apiKey).catch(() => undefined);
      if (ws.readyState !== ws.OPEN) return;
      if (team === undefined) return ws.close(ViewerCloseCode.UNAUTHORIZED, 'Unauthorized: Invalid token');
      if (team.id !== session.teamId) {
        return ws.close(ViewerCloseCode.FORBIDDEN, "This API key's team cannot open this session");
      }
      clearTimeout(authTimer);
      authorized = true;
      session.touch();
      send({ type: 'ready', sessionId: session.id, interactive, expiresAt: session.expiresAt.toISOString() });
      watching = true;
      fanoutOf(session).add(viewer);
    };

    const handle = (message: ViewerMessage) => {
      if (message.type === 'auth') {
        if (!authorized) void authorize(message.apiKey);
        return;
      }
      if (!authorized) return ws.close(ViewerCloseCode.UNAUTHORIZED, 'send the API key first');
      session.touch();
      switch (message.type) {
        case 'ping':
          return;
        case 'ack':
          fanouts.get(session)?.ack(viewer, message.frameSessionId);
          return;
        case 'input':
        case 'navigate':
          if (!interactive) {
            send({
              type: 'error',
              message: 'This live view only watches: use the interactive live view URL to act.',
            });
            return;
          }
          if (message.type === 'input') {
            inputQueueOf(session).push(message.input, (err) => send({ type: 'error', message: err.message }));
            return;
          }
          navigate(message.url);
          return;
      }
    };

    const navigate = (text: string) => {
      const url = addressFromBar(text);
      if (url === undefined) {
        send({ type: 'error', message: 'The address bar takes http and https addresses.' });
        return;
      }
      session
        .command({ kind: 'navigate', url, timeoutMs: NAVIGATE_TIMEOUT_MS }, NAVIGATE_TIMEOUT_MS + 5_000)
        .then(({ url: reached }) => send({ type: 'navigated', url: reached }))
        .catch((err: unknown) =>
          send({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
        );
    };

    ws.on('message', (data, isBinary) => {
      let json: unknown;
      try {
        json = isBinary ? undefined : JSON.parse(data.toString());
      } catch {
        json = undefined;
      }
      const parsed = ViewerMessage.safeParse(json);
      if (!parsed.success) return ws.close(ViewerCloseCode.BAD_MESSAGE, 'not a live view message');
      handle(parsed.data);
    });
    ws.on('close', leave);
    ws.on('error', (err) => log.info('live view socket error', { session: session.id, error: err.message }));
  };

  return {
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
      const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
      const token = SOCKET_PATH.exec(pathname)?.[1] ?? '';
      const found = sessions.byViewToken(token);
      if (found === undefined) return refuseUpgrade(socket, 404, 'Live view not found');
      server.handleUpgrade(request, socket, head, (ws) => serve(ws, found.session, found.interactive));
    },
    close() {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}

export type LiveViewSocket = ReturnType<typeof createLiveViewSocket>;
