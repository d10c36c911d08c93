/**
 * What a browser session's cdpUrl relay may send to the session's tab. Broader than the task
 * allowlist (debugger/cdp-allowlist.ts), which covers only the commands of Tabhive's own typed
 * actions: the relay carries a caller's Playwright or Puppeteer, so whole page-scoped domains pass.
 * Nothing reaches beyond the tab: no Target.* or Browser.* (the server answers the few
 * browser-level commands clients send at connect itself), no Storage.*, SystemInfo, Tethering,
 * Tracing, no Fetch.* (requests rewritten or answered on the tab's behalf), nothing that reads
 * local files into a page or writes downloads to disk. On a donated browser (a person's own) also
 * no cookie or storage reads and writes, which would hand over the person's logins for every site.
 */

/** Domains whose every method is scoped to the page the tab shows. */
const PAGE_DOMAINS: ReadonlySet<string> = new Set([
  'Accessibility',
  'Animation',
  'Audits',
  'CSS',
  'Console',
  'DOM',
  'DOMDebugger',
  'DOMSnapshot',
  'Debugger',
  'Emulation',
  'Input',
  'Inspector',
  'LayerTree',
  'Log',
  'Media',
  'Network',
  'Overlay',
  'Page',
  'Performance',
  'PerformanceTimeline',
  'Profiler',
  'Runtime',
]);

/** Domains that read or write an origin's storage, not only the page's own. */
const STORAGE_DOMAINS: ReadonlySet<string> = new Set(['DOMStorage', 'IndexedDB', 'CacheStorage']);

/** Methods of the page domains refused everywhere, and why. */
const REFUSED_METHODS: ReadonlyMap<string, string> = new Map([
  ['DOM.setFileInputFiles', 'it reads files of the browser machine into the page'],
  ['DOM.getFileInfo', 'it reveals paths of the browser machine'],
  ['Page.setDownloadBehavior', 'downloads to disk are not available'],
  ['Page.close', 'the session ends through DELETE /v2/browser/:id'],
  ['Page.crash', 'the session ends through DELETE /v2/browser/:id'],
  // The live view owns the tab's one screencast.
  ['Page.startScreencast', 'the live view owns the screencast'],
  ['Page.stopScreencast', 'the live view owns the screencast'],
  ['Page.screencastFrameAck', 'the live view owns the screencast'],
  ['Network.getAllCookies', 'it reads every site’s cookies'],
  ['Network.clearBrowserCookies', 'it clears every site’s cookies'],
  ['Network.clearBrowserCache', 'it clears the whole browser’s cache'],
  ['Network.loadNetworkResource', 'it fetches with the browser’s credentials outside the page'],
  ['Network.setCookieControls', 'it changes the whole browser’s cookie settings'],
  ['Network.takeResponseBodyForInterceptionAsStream', 'request interception is not available'],
  ['Network.setRequestInterception', 'request interception is not available'],
  ['Network.continueInterceptedRequest', 'request interception is not available'],
  ['Network.getResponseBodyForInterception', 'request interception is not available'],
]);

/** Methods refused on a donated browser only: a person's logins and focus stay theirs. */
const REFUSED_ON_DONATED: ReadonlyMap<string, string> = new Map([
  ['Network.getCookies', 'cookies of a donated browser stay with its owner'],
  ['Network.setCookie', 'cookies of a donated browser stay with its owner'],
  ['Network.setCookies', 'cookies of a donated browser stay with its owner'],
  ['Network.deleteCookies', 'cookies of a donated browser stay with its owner'],
  ['Page.bringToFront', 'a donated browser’s window focus stays with its owner'],
]);

/** Addresses `Page.navigate` may go to; the tab's network rules apply on top. */
const NAVIGABLE = /^(https?:|about:blank$)/i;

/**
 * Why the relay refuses `method` with these `params`, or undefined when it passes. `donated`:
 * the session's tab is in a person's own browser.
 */
export function relayRefusal(
  method: string,
  params: Record<string, unknown> | undefined,
  { donated }: { donated: boolean },
): string | undefined {
  const [domain, name, extra] = method.split('.');
  if (domain === undefined || name === undefined || name === '' || extra !== undefined) {
    return `${method} is not a CDP method name`;
  }
  const refused = REFUSED_METHODS.get(method) ?? (donated ? REFUSED_ON_DONATED.get(method) : undefined);
  if (refused !== undefined) return `${method} is not available through the cdpUrl relay: ${refused}`;
  if (STORAGE_DOMAINS.has(domain)) {
    if (donated) return `${method} is not available on a donated browser: its storage stays with its owner`;
    return undefined;
  }
  if (!PAGE_DOMAINS.has(domain)) {
    return `${method} is not available through the cdpUrl relay: it reaches beyond the session's tab`;
  }
  if (method === 'Page.navigate') {
    const url = params?.['url'];
    if (typeof url !== 'string' || !NAVIGABLE.test(url.trim())) {
      return 'Page.navigate through the cdpUrl relay goes to http(s) addresses and about:blank only';
    }
  }
  return undefined;
}
