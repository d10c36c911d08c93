import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserTokens, type BrowserTokens } from '../../server/browsers/launch-tokens/browser-tokens';
import { createBrowserHub, type BrowserHub } from '../../server/browsers/hub/create-browser-hub';
import { silentLog } from '../../server/platform/log/log';
import { HUB_PATH } from '../../shared/protocol/messages';

export interface HubOnLoopback {
  hub: BrowserHub;
  tokens: BrowserTokens;
  server: Server;
  port: number;
  /** The hub's WebSocket address, as a browser dials it. */
  hubUrl: string;
  /** Closes the hub, then the server and every connection still open on it. */
  close(): Promise<void>;
}

/**
 * A browser hub behind a plain HTTP server on a loopback port, upgrading sockets as the API server
 * does, for the hub's own tests: 2 tabs per browser and a 2 s no-browser grace unless `options` say
 * otherwise.
 */
export async function startHubOnLoopback(
  options: Partial<Parameters<typeof createBrowserHub>[0]> = {},
): Promise<HubOnLoopback> {
  const tokens = options.tokens ?? createBrowserTokens();
  const hub = createBrowserHub({
    log: silentLog,
    tabsPerBrowser: 2,
    noBrowserGraceMs: 2_000,
    ...options,
    tokens,
  });
  const server = createServer();
  server.on('upgrade', (request, socket, head) => hub.handleUpgrade(request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    hub,
    tokens,
    server,
    port,
    hubUrl: `ws://127.0.0.1:${port}${HUB_PATH}`,
    close: async () => {
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
