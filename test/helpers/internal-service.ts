import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

export const INTERNAL_SECRET = 'INTERNAL-SECRET-7f3a';

/**
 * A stand-in for a service on the internal network (an admin panel, a metadata endpoint): an HTTP
 * server on loopback, IPv4 and IPv6 on the same port, that answers every request with a secret and
 * counts every TCP connection it accepts, so a test can show that nothing reached it.
 */
export async function startInternalService(): Promise<{
  port: number;
  /** Accepted TCP connections and the requests' paths since the last call, and starts counting anew. */
  takeCounts(): { connections: number; requests: string[] };
  close(): Promise<void>;
}> {
  let connections = 0;
  let requests: string[] = [];
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${request.headers.host} ${request.url}`);
    response.end(`<html><body><h1>${INTERNAL_SECRET}</h1></body></html>`);
  };
  const servers: Server[] = [createServer(handler), createServer(handler)];
  for (const server of servers) server.on('connection', () => (connections += 1));
  const [v4, v6] = servers as [Server, Server];
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  const { port } = v4.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    v6.once('error', reject);
    v6.listen(port, '::1', resolve);
  });
  return {
    port,
    takeCounts() {
      const counts = { connections, requests };
      connections = 0;
      requests = [];
      return counts;
    },
    async close() {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}

/**
 * Fails the calling test when anything reached `internal` since the last count: the afterEach of
 * tests in which nothing may.
 */
export function expectNothingReached(internal: Awaited<ReturnType<typeof startInternalService>>) {
  const { connections, requests } = internal.takeCounts();
  expect(requests, 'requests that reached the internal service').toEqual([]);
  expect(connections, 'connections the internal service accepted').toBe(0);
}
