import { browser, type Browser } from 'wxt/browser';
import { CONTENT_PANELS } from '../../shared/html/content-panels';
import { capturePage, type InPageCapture } from '../page/capture-page';
import { captureErrorMessage, restrictedPageReason } from './restricted-page';

/**
 * Reads a tab's DOM for the popup, with the same in-page function the worker's tasks use. Plain
 * `scripting.executeScript` suffices here (no debugger, so no "is debugging this browser" bar on a
 * person's own tab); the extension's host permissions cover every http(s) page.
 */
export async function captureTab(tab: Browser.tabs.Tab): Promise<InPageCapture> {
  const refused = restrictedPageReason(tab.url ?? '');
  if (refused !== undefined) throw new Error(refused);
  if (tab.id === undefined) throw new Error('This tab cannot be read.');
  const tabId = tab.id;
  const [injection] = await browser.scripting
    .executeScript({ target: { tabId }, func: capturePage, args: [{ contentPanels: CONTENT_PANELS }] })
    .catch((error: unknown) => {
      throw new Error(captureErrorMessage(error, tab.url ?? ''), { cause: error });
    });
  const capture = injection?.result as InPageCapture | undefined;
  if (capture === undefined || typeof capture.rawHtml !== 'string') {
    throw new Error('The page did not answer; reload it and try again.');
  }
  return capture;
}

/**
 * What the tab shows, as a PNG data URL. Chrome can only capture the visible tab of a window, which
 * the tab the popup was opened on always is.
 */
export async function screenshotTab(tab: Browser.tabs.Tab): Promise<string> {
  const current = tab.id === undefined ? undefined : await browser.tabs.get(tab.id);
  if (current === undefined || !current.active) {
    throw new Error('Only the tab in front can be photographed; switch to it and open Tabhive again.');
  }
  return browser.tabs.captureVisibleTab(current.windowId, { format: 'png' });
}
