import { browser } from 'wxt/browser';
import { attachCdp } from '../debugger/cdp-session';
import { closeTaskWindow, openTaskWindow } from '../tabs/task-window';
import type { StorageKeysSeen } from './storage-keys-seen';

/**
 * Removes all the data of the storage keys the browser's documents used, through a tab's debugger:
 * browsingData.remove empties every kind of storage but leaves Storage Buckets' names (and the
 * quota database's records of them) behind, which a page of the next owner could list. CDP's
 * Storage.clearDataForStorageKey with `all` removes them. A blank window of its own is the tab,
 * since no task holds one while the state changes hands.
 */
async function clearStorageKeys(seen: StorageKeysSeen): Promise<void> {
  const keys = await seen.list();
  if (keys.length === 0) return;
  const { windowId, tabId } = await openTaskWindow();
  try {
    const cdp = await attachCdp(tabId);
    try {
      await Promise.all(
        keys.map((storageKey) =>
          cdp.send('Storage.clearDataForStorageKey', { storageKey, storageTypes: 'all' }),
        ),
      );
    } finally {
      await cdp.detach('wiped');
    }
  } finally {
    await closeTaskWindow(windowId);
  }
  await seen.forget(keys);
}

/**
 * Everything a site can leave in a profile for the next visitor: cookies, every kind of storage
 * and Storage Buckets' names, service workers and the HTTP cache. Only ever called in a launched
 * browser, which holds nothing of a person's: a donated browser is never wiped.
 */
export async function wipeBrowserState(seen: StorageKeysSeen): Promise<void> {
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
  await clearStorageKeys(seen);
}
