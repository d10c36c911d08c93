import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler, UpgradeHandler } from './running-tabhive';

/**
 * Holds the requests and WebSocket upgrades that reach a listening server before it has handlers,
 * and hands them over once it has. A browser's hub socket opened a moment too early so waits for
 * the hub instead of failing into the extension's reconnect backoff (half a second or more).
 */
export function holdEarlyTraffic(server: Server) {
  let requests: Array<[IncomingMessage, ServerResponse]> = [];
  let upgrades: Array<[IncomingMessage, Duplex, Buffer]> = [];
  // A held socket whose client goes away must not throw for want of an error listener.
  const ignoreError = () => {};
  const holdRequest = (request: IncomingMessage, response: ServerResponse) => {
    requests.push([request, response]);
  };
  const holdUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', ignoreError);
    upgrades.push([request, socket, head]);
  };
  server.on('request', holdRequest);
  server.on('upgrade', holdUpgrade);
  const stopHolding = () => {
    server.off('request', holdRequest);
    server.off('upgrade', holdUpgrade);
    const held = { requests, upgrades };
    requests = [];
    upgrades = [];
    return held;
  };
  return {
    release(handleRequest: RequestHandler, handleUpgrade: UpgradeHandler) {
      const held = stopHolding();
      server.on('request', handleRequest);
      server.on('upgrade', handleUpgrade);
      for (const [request, response] of held.requests) handleRequest(request, response);
      for (const [request, socket, head] of held.upgrades) {
        socket.off('error', ignoreError);
        if (!socket.destroyed) handleUpgrade(request, socket, head);
      }
    },
    /** For a start that failed: closes whatever was held. */
    drop() {
      const held = stopHolding();
      for (const [, response] of held.requests) response.destroy();
      for (const [, socket] of held.upgrades) socket.destroy();
    },
  };
}
