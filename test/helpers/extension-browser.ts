import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';

/** What the tests call inside the extension's worker: run there by Playwright, only typed here. */
declare const chrome: {
  tabs: { query(query: object): Promise<Array<{ id?: number; url?: string }>> };
  windows: { create(options: object): Promise<unknown> };
};

const CHROMIUM_PATH = '/usr/lib/chromium/chromium';
const EXTENSION_DIR = path.resolve('.output/chrome-mv3');

/**
 * A person's Chromium: headless, with the built extension installed (run `wxt build` first), and
 * driven by Playwright so tests can open the popup and the options page as real extension pages.
 * The extension's worker is reachable for what a test cannot do through a page (finding a tab's id).
 */
export async function startExtensionBrowser({
  extensionDir = EXTENSION_DIR,
  args = [],
}: {
  /** Another copy of the built extension, e.g. one staged with a launch config. */
  extensionDir?: string;
  /** More Chromium switches: `--host-resolver-rules` gives this browser alone names of its own. */
  args?: string[];
} = {}) {
  const profileDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-person-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    // The pages' own window sizes, so the popup lays out at the width it has in a toolbar.
    viewport: null,
    acceptDownloads: true,
    args: [
      // Chromium refuses to start its sandbox as root.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      ...args,
    ],
  });
  const worker: Worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;

  return {
    context,
    worker,
    extensionId,
    /** The id Chrome gave the tab showing `page`, as the popup's `?tab=` parameter wants it. */
    async tabIdOf(page: Page): Promise<number> {
      const url = page.url();
      const id = await worker.evaluate(
        async (wanted) => (await chrome.tabs.query({})).find((tab) => tab.url === wanted)?.id,
        url,
      );
      if (id === undefined) throw new Error(`no tab shows ${url}`);
      return id;
    },
    /**
     * Opens an extension page (`popup.html?tab=…`, `options.html`) in a small window of its own,
     * as the toolbar's popup floats above the window it was opened on: that tab stays in front.
     */
    async openExtensionWindow(pagePath: string, size = { width: 480, height: 680 }): Promise<Page> {
      const url = `chrome-extension://${extensionId}/${pagePath}`;
      const opened = context.waitForEvent('page', (page) => page.url() === url);
      await worker.evaluate(
        async ({ url, size }) => void (await chrome.windows.create({ url, type: 'popup', ...size })),
        { url, size },
      );
      const page = await opened;
      await page.waitForLoadState('domcontentloaded');
      return page;
    },
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
