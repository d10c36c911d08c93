import { isIPv6 } from 'node:net';
import type { Context } from 'koa';

/** Builds the absolute URL of an API path (`/v2/crawl/<id>`) for a response. */
export type PublicUrl = (ctx: Context, path: string) => string;

/** The address this connection reached the server on, as a URL base: the listening address, never a header. */
function listeningBase(ctx: Context): string {
  const { localAddress, localPort } = ctx.req.socket;
  // Dual-stack sockets report IPv4 peers as IPv4-mapped IPv6.
  const address = (localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const host = isIPv6(address) ? `[${address.replace(/%.*$/, '')}]` : address;
  return `http://${host}:${localPort ?? 80}`;
}

/**
 * The base of the absolute URLs the API hands out (a job's `url`, `next` pages, the OpenAPI
 * `servers`): PUBLIC_URL when the operator set it (a reverse proxy's address, path prefix kept),
 * otherwise the address the connection reached this server on. Never the Host header or
 * X-Forwarded-*: SDKs follow `next` with the caller's API key, so a Host a caller or a proxy
 * in between chose would send that key to another server.
 */
export function createPublicUrl(configured: string | undefined): PublicUrl {
  const base = configured?.replace(/\/+$/, '');
  return (ctx, path) => `${base ?? listeningBase(ctx)}${path}`;
}
