import { browser } from 'wxt/browser';
import { z } from 'zod';
import { storageKeysOf } from './storage-keys-of';

/** Where the keys are kept across worker restarts (session storage: the browser's run only). */
const STORE_KEY = 'storageKeysSeen';
/** Bounds the list; past it the oldest are forgotten (a long crawl of one team touches fewer). */
export const MAX_STORAGE_KEYS = 5_000;

const Stored = z.array(z.string()).catch([]);

/**
 * The storage keys the documents of a launched browser may have written under since its last
 * wipe, from every frame committed in any tab (popups too). browsingData.remove empties storage
 * but leaves Storage Buckets' names behind, which only CDP's Storage domain removes, per storage
 * key (wipe-browser-state.ts). `recording` is false in a donated browser: nothing of a person's
 * browsing is kept.
 */
export function createStorageKeysSeen({ recording }: { recording: () => Promise<boolean> }) {
  const keys = new Set<string>();
  const loaded = browser.storage.session
    .get(STORE_KEY)
    .then((stored) => Stored.parse(stored[STORE_KEY]).forEach((key) => keys.add(key)))
    .catch(() => undefined);
  const save = () => browser.storage.session.set({ [STORE_KEY]: [...keys] }).catch(() => undefined);
  /** Top-level URLs by tab, for the partition of a frame's storage. */
  const tops = new Map<number, string>();

  browser.tabs.onRemoved.addListener((tabId) => tops.delete(tabId));
  browser.webNavigation.onCommitted.addListener((details) => {
    if (details.frameId === 0) tops.set(details.tabId, details.url);
    const top = details.frameId === 0 ? details.url : tops.get(details.tabId);
    const found = storageKeysOf(details.url, top);
    if (found.length === 0) return;
    void (async () => {
      if (!(await recording())) return;
      await loaded;
      const before = keys.size;
      for (const key of found) {
        keys.delete(key);
        keys.add(key);
      }
      for (const key of keys) {
        if (keys.size <= MAX_STORAGE_KEYS) break;
        keys.delete(key);
      }
      if (keys.size !== before) await save();
    })();
  });

  return {
    /** The keys seen since the last `forget`. */
    async list(): Promise<string[]> {
      await loaded;
      return [...keys];
    },
    /** Drops keys once their storage is gone. */
    async forget(done: readonly string[]): Promise<void> {
      for (const key of done) keys.delete(key);
      await save();
    },
  };
}

export type StorageKeysSeen = ReturnType<typeof createStorageKeysSeen>;
