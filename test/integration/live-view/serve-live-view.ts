import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createStaticKeyring } from '../../../server/platform/auth/keyring';
import type { LiveSessionDirectory } from '../../../server/products/browser-sessions/live-session';
import { createCdpRelay, isCdpRelayPath } from '../../../server/products/live-view/cdp-relay';
import {
  createLiveViewSocket,
  isLiveViewSocketPath,
} from '../../../server/products/live-view/live-view-socket';
import { liveViewRoutes } from '../../../server/products/live-view/live-view-routes';
import { silentLog } from '../../../server/platform/log/log';

export const TEAM_KEY = 'fc-live-view-team-key';
export const OTHER_TEAM_KEY = 'fc-live-view-other-team-key';
export const TEAM_ID = 'live-team';

/**
 * The live view page, its socket and the cdpUrl relay on a loopback server, wired as
 * compose-tabhive.ts wires them, over a test's session directory and two teams' keys.
 */
export async function serveLiveView(
  directory: LiveSessionDirectory,
  /** What `DELETE /v2/browser/:id` with the team's key does (the live view's End button). */
  endSession: (id: string) => void = () => {},
) {
  const keyring = createStaticKeyring([
    { apiKey: TEAM_KEY, team: { id: TEAM_ID, name: 'Live team' } },
    { apiKey: OTHER_TEAM_KEY, team: { id: 'other-team', name: 'Other team' } },
  ]);
  const app = new Koa();
  const router = liveViewRoutes({ sessions: directory });
  router.delete('/v2/browser/:id', (ctx) => {
    const session = directory.get(ctx.params['id'] ?? '', TEAM_ID);
    if (ctx.get('authorization') !== `Bearer ${TEAM_KEY}` || session === undefined) {
      ctx.status = 404;
      ctx.body = { success: false, error: 'Browser session not found' };
      return;
    }
    endSession(session.id);
    ctx.body = { success: true };
  });
  app.use(router.routes());
  const liveView = createLiveViewSocket({ keyring, sessions: directory, log: silentLog });
  const relay = createCdpRelay({ keyring, sessions: directory, log: silentLog });
  const server = createServer(app.callback());
  server.on('upgrade', (request, socket, head) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (isLiveViewSocketPath(pathname)) liveView.handleUpgrade(request, socket, head);
    else if (isCdpRelayPath(pathname)) void relay.handleUpgrade(request, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async close() {
      liveView.close();
      relay.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
