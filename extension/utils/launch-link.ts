/** Page of this extension that a server opens when it launches a browser for its pool. */
export const LAUNCH_PAGE = 'launch.html';

/**
 * Reads `chrome-extension://<id>/launch.html#server=…&token=…[&class=stealth]`. Returns undefined
 * for any other URL. `extensionOrigin` is `chrome-extension://<id>` (no trailing slash).
 */
export function parseLaunchLink(
  url: string | undefined,
  extensionOrigin: string,
): { serverUrl: string; token: string; browserClass?: 'basic' | 'stealth' } | undefined {
  if (url === undefined || !url.startsWith(`${extensionOrigin}/${LAUNCH_PAGE}#`)) return undefined;
  const params = new URLSearchParams(url.slice(url.indexOf('#') + 1));
  const serverUrl = params.get('server');
  const token = params.get('token');
  if (serverUrl === null || token === null || serverUrl === '' || token === '') return undefined;
  const browserClass = params.get('class');
  return browserClass === 'basic' || browserClass === 'stealth'
    ? { serverUrl, token, browserClass }
    : { serverUrl, token };
}
