import { browser } from 'wxt/browser';
import { LAUNCH_PAGE, parseLaunchLink } from './launch-link';
import { writeHubSettings } from './hub-settings';

const extensionOrigin = () => browser.runtime.getURL('/').replace(/\/$/, '');

async function adopt(tabId: number | undefined, url: string | undefined): Promise<void> {
  const link = parseLaunchLink(url, extensionOrigin());
  if (link === undefined || tabId === undefined) return;
  await writeHubSettings({ ...link, origin: 'launched' });
  // Drop the token from the tab; the plain page just says what this browser is for.
  await browser.tabs.update(tabId, { url: browser.runtime.getURL(`/${LAUNCH_PAGE}`) }).catch(() => undefined);
}

/**
 * Takes the hub settings from the launch link a server opened this browser with. Chromium may open
 * the start URL before the extension is ready, in which case the page's own script never runs but
 * the tab keeps the URL; so the worker looks at existing tabs and watches for new ones.
 */
export function watchForLaunchTab(): void {
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.url !== undefined) void adopt(tabId, change.url);
  });
  void browser.tabs.query({}).then((tabs) => Promise.all(tabs.map((tab) => adopt(tab.id, tab.url))));
}
