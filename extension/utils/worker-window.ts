import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';

const windowIdItem = storage.defineItem<number | null>('session:workerWindowId', { fallback: null });
let creating: Promise<number> | undefined;

/**
 * The unfocused window task tabs open in. One window for all tasks: each new window costs a
 * renderer in headless Chromium, and on a donor's desktop tasks stay out of the person's windows.
 * Its id survives worker restarts in session storage; a window closed by hand is recreated.
 */
export async function workerWindowId(): Promise<number> {
  const known = await windowIdItem.getValue();
  if (known !== null) {
    try {
      await browser.windows.get(known);
      return known;
    } catch {
      await windowIdItem.setValue(null);
    }
  }
  creating ??= (async () => {
    const created = await browser.windows.create({ url: 'about:blank', focused: false, type: 'normal' });
    if (created?.id === undefined) throw new Error('could not create the worker window');
    await windowIdItem.setValue(created.id);
    return created.id;
  })().finally(() => {
    creating = undefined;
  });
  return creating;
}
