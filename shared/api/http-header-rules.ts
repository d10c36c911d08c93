/** RFC 9110 `token`: what a header name may consist of. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
/** Longest header name or value a caller may give, in characters. */
export const MAX_HEADER_LENGTH = 8192;
/** Most headers a caller may give in one set. */
export const MAX_HEADERS = 50;

/**
 * Headers of the connection and the message framing, which are the HTTP client's to set, never a
 * caller's: `Host` (it must follow the URL; a caller's would reach another virtual host, an
 * internal app behind a public reverse proxy), the hop-by-hop headers of RFC 9110 §7.6.1
 * (Connection, Keep-Alive, Proxy-*, TE, Trailer, Transfer-Encoding, Upgrade) and Content-Length.
 */
const CONNECTION_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

export function isConnectionHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CONNECTION_HEADERS.has(lower) || lower.startsWith('proxy-');
}
