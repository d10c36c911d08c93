import { EXTENSION_ID } from '../../../shared/extension-identity';

/**
 * Whether a hub WebSocket may open with this Origin header. Chromium sends the extension's own
 * origin from its service worker (launched and donated browsers run the same extension, under
 * one key); a web page's socket carries the page's origin, and is refused, so that no page a
 * person visits can drive a hub connection with a token it got hold of. Clients that are not
 * browsers (the test doubles, tools) send no Origin: nothing can make them send one for a page.
 */
export function hubOriginAllowed(origin: string | undefined): boolean {
  return origin === undefined || origin === `chrome-extension://${EXTENSION_ID}`;
}
