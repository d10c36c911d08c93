import { browser } from 'wxt/browser';
import { parseDomainList } from './parse-domain-list';

/** Packaged with the extension from extension/public (see block-lists/README.md for its origin). */
const LIST_PATH = '/block-lists/ad-domains.txt';

let cached: Promise<string[]> | undefined;

/** The ad and tracker domains `blockAds` blocks, read once per worker. */
export function adDomains(): Promise<string[]> {
  cached ??= fetch(browser.runtime.getURL(LIST_PATH as '/'))
    .then((response) => response.text())
    .then(parseDomainList)
    .catch((err: unknown) => {
      cached = undefined;
      throw err;
    });
  return cached;
}
