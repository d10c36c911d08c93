import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A forward HTTP proxy for plain http:// targets that records every URL it was asked for; it
 * stands in for the upstream proxy of stealth browsers.
 */
export async function startRecordingProxy() {
  const urls: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url ?? '/');
    urls.push(target.href);
    const upstream = httpRequest(
      target,
      { method: incoming.method, headers: incoming.headers },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    urls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
