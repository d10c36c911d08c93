import { browser } from 'wxt/browser';
import type { StateWitness } from './state-witness';

/**
 * Tells the witness what the browser does to its sites' state: every document committed (any
 * frame, any tab, popups too), every request sent by a page or a worker (a response may set a
 * cookie; redirects included), every cookie written, by a response, a script or the debugger.
 * The worker's own requests (its hub socket) touch no site's state and are left out.
 */
export function watchStateTouches(witness: StateWitness): void {
  const ownOrigin = new URL(browser.runtime.getURL('/')).origin;
  // Only the worker's own requests: a tab's navigation that the extension started is a page's.
  const fromExtension = (tabId: number, initiator: string | undefined) =>
    tabId < 0 && initiator === ownOrigin;

  browser.webNavigation.onCommitted.addListener((details) =>
    witness.committed(details.tabId, details.frameId, details.url),
  );
  browser.webRequest.onBeforeRequest.addListener(
    (details) => {
      if (!fromExtension(details.tabId, details.initiator))
        witness.requested(details.tabId, details.url, details.type);
      return undefined;
    },
    { urls: ['<all_urls>'] },
  );
  browser.webRequest.onBeforeRedirect.addListener(
    (details) => {
      if (!fromExtension(details.tabId, details.initiator))
        witness.requested(details.tabId, details.redirectUrl, details.type);
    },
    { urls: ['<all_urls>'] },
  );
  browser.cookies.onChanged.addListener(({ removed, cookie }) => {
    if (!removed) witness.cookieWritten(cookie.domain);
  });
}
