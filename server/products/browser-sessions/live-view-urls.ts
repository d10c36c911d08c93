import type { LiveSession } from './live-session';

/** Where a session's live view page is served; the token is the rest of the path. */
export const LIVE_VIEW_PATH_PREFIX = '/live/';

/**
 * The addresses a browser session's create and list responses carry: the CDP relay (a WebSocket
 * on the same host: `http` → `ws`, `https` → `wss`) and the two live view pages (watching, and
 * interactive). `publicUrl` is the API's base (PUBLIC_URL or the listening address), no trailing slash.
 */
export function liveViewUrls(
  publicUrl: string,
  session: LiveSession,
): { cdpUrl: string; liveViewUrl: string; interactiveLiveViewUrl: string } {
  const base = publicUrl.replace(/\/+$/, '');
  const socketBase = base.replace(/^http(s?):/i, (_match, secure: string) => `ws${secure}:`);
  return {
    cdpUrl: `${socketBase}/v2/browser/${encodeURIComponent(session.id)}/cdp`,
    liveViewUrl: `${base}${LIVE_VIEW_PATH_PREFIX}${session.liveViewToken}`,
    interactiveLiveViewUrl: `${base}${LIVE_VIEW_PATH_PREFIX}${session.interactiveToken}`,
  };
}
