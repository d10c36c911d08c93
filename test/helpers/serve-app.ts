import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

/** Serves a Koa app on an ephemeral loopback port; returns its base URL and a closer. */
export async function serveApp(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
