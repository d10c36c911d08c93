import { browser } from 'wxt/browser';

/**
 * Everything a site can leave in a profile for the next visitor: cookies, every kind of storage,
 * service workers and the HTTP cache. Only ever called in a launched browser, which holds nothing
 * of a person's: a donated browser is never wiped.
 */
export async function wipeBrowserState(): Promise<void> {
  await browser.browsingData.remove(
    { since: 0 },
    {
      cookies: true,
      localStorage: true,
      indexedDB: true,
      serviceWorkers: true,
      cacheStorage: true,
      cache: true,
      fileSystems: true,
      webSQL: true,
    },
  );
}
