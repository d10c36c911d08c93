import { HUB_PATH } from '../../../shared/protocol/messages';

/**
 * The hub socket's address for a server's public address: `https://api.example` → `wss://api.example/browser-hub`,
 * a path prefix kept (a server behind a proxy under `/tabhive`). Also accepts the hub address itself.
 */
export function hubUrlOf(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.protocol === 'ws:' || url.protocol === 'wss:') return url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--server must be an http(s) or ws(s) address, got ${url.protocol}`);
  }
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${HUB_PATH}`;
  url.search = '';
  url.hash = '';
  return url.href;
}
