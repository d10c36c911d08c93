/** Schemes of pages no extension may read: the browser's own pages and other extensions. */
const BROWSER_SCHEMES =
  /^(?:chrome|chrome-extension|chrome-untrusted|chrome-search|edge|about|devtools|view-source):/i;

/**
 * Why the popup cannot read the page at `url`, in words for the person looking at it, or
 * undefined when it can try. Chrome would refuse these anyway, with messages meant for developers.
 */
export function restrictedPageReason(url: string): string | undefined {
  if (url === '') return 'This tab has no page to read yet.';
  if (BROWSER_SCHEMES.test(url)) return 'This is one of the browser’s own pages; extensions may not read it.';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'This tab’s address cannot be read.';
  }
  const store =
    parsed.hostname === 'chromewebstore.google.com' ||
    (parsed.hostname === 'chrome.google.com' && parsed.pathname.startsWith('/webstore'));
  if (store) return 'Chrome does not let extensions read the Web Store.';
  return undefined;
}

/** Chrome's own refusal, said plainly: local files need a switch only the person can turn on. */
export function captureErrorMessage(error: unknown, url: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (url.startsWith('file:')) {
    return 'Local files can be read only with “Allow access to file URLs” on in Tabhive’s details page.';
  }
  if (/cannot access|cannot be scripted|permission/i.test(message)) {
    return `Chrome does not let extensions read this page (${message}).`;
  }
  return `The page could not be read: ${message}`;
}
