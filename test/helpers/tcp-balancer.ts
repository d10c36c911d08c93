import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP load balancer on loopback, as an operator would put in front of several API instances:
 * each new connection goes to the next backend in turn; a backend that refuses the connection is
 * skipped for the next one. WebSockets (the browser hub) pass through like any connection.
 */
export async function startTcpBalancer(backends: readonly number[]) {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const connect = (client: net.Socket, tries: number) => {
    const port = backends[next % backends.length] as number;
    next += 1;
    const upstream = net.connect({ host: '127.0.0.1', port });
    upstream.once('error', () => {
      upstream.destroy();
      if (tries + 1 < backends.length && !client.destroyed) connect(client, tries + 1);
      else client.destroy();
    });
    upstream.once('connect', () => {
      sockets.add(upstream);
      upstream.removeAllListeners('error');
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  };
  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    connect(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
