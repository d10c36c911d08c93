import { browser } from 'wxt/browser';

/**
 * Closes every tab a task's page opens (a `target=_blank` link or a `window.open` run by a click
 * action): a popup has none of its task's rules, guards or fence, and nothing ever closed it (H2
 * of the red-team report: 20 scrapes left 20 renderers, and popups in a donor's browser left the
 * allowed domains). Firecrawl's engines capture the page the task opened too, never its popups.
 * In a launched browser the egress proxy (server/platform/browser-egress/start-browser-egress-proxy.ts) and the
 * browser-wide address rules (standing-address-rules.ts) refuse whatever a popup asks for before
 * it is closed, a name that resolves inward included; in a donated one the task's fence does
 * (task-network-rules.ts), for every tab the task's page could open.
 */
/** How long after it appears a popup is closed. */
const POPUP_CLOSE_DELAY_MS = 200;

export function guardTaskPopups({
  isTaskTab,
  onClosed,
}: {
  isTaskTab(tabId: number): boolean;
  onClosed?(popupTabId: number, openerTabId: number): void;
}): void {
  browser.tabs.onCreated.addListener((tab) => {
    const opener = tab.openerTabId;
    if (tab.id === undefined || opener === undefined || !isTaskTab(opener)) return;
    const popupId = tab.id;
    // Not from inside onCreated: window.open waits in the page for the browser to finish making
    // the window, and a tab removed that early left the opener's click hanging now and then (its
    // input event never acknowledged). Network rules already hold the popup's requests meanwhile.
    setTimeout(() => {
      void browser.tabs.remove(popupId).then(
        () => onClosed?.(popupId, opener),
        () => undefined,
      );
    }, POPUP_CLOSE_DELAY_MS);
  });
}
