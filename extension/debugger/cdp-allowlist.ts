/**
 * Every DevTools protocol method the extension may send, and nothing else. Callers never reach raw
 * CDP: the server sends typed actions, and these are the commands that implement them. Left out on
 * purpose: cookie readers and writers (`Network.getAllCookies`, `Storage.*`: on a donated browser
 * they would hand over the donor's sessions for every site), `Fetch.*` beyond what reads a PDF
 * from the tab's own response (no request rewritten, fulfilled or answered with credentials),
 * `Target.*` and `Browser.*` (browser-wide reach beyond the task's tab). `Security.*` would be
 * the way to ignore certificate errors per tab, but Chromium does not expose that domain to
 * extensions ("'Security.setIgnoreCertificateErrors' wasn't found"), so skipTlsVerification
 * works through a launch flag instead (run-page-task.ts checkCertificate).
 */
export const ALLOWED_CDP_METHODS: ReadonlySet<string> = new Set([
  // Navigation, lifecycle, frames and capture.
  'Page.enable',
  'Page.getFrameTree',
  'Page.setLifecycleEventsEnabled',
  'Page.navigate',
  'Page.createIsolatedWorld',
  'Page.addScriptToEvaluateOnNewDocument',
  'Page.removeScriptToEvaluateOnNewDocument',
  'Page.getLayoutMetrics',
  'Page.captureScreenshot',
  'Page.printToPDF',
  // The main document's status and body.
  'Network.enable',
  'Network.getResponseBody',
  // A PDF's bytes from the tab's own response (catch-pdf-bodies.ts): held at the response stage,
  // read, continued unchanged (or failed when too large), and nothing else.
  'Fetch.enable',
  'Fetch.disable',
  'Fetch.getResponseBody',
  'Fetch.continueRequest',
  'Fetch.failRequest',
  // Capture and executeJavascript, always in a world the task created.
  'Runtime.evaluate',
  // click, write, press.
  'Input.dispatchMouseEvent',
  'Input.dispatchKeyEvent',
  'Input.insertText',
  // mobile, location, screenshot viewports.
  'Emulation.setDeviceMetricsOverride',
  'Emulation.clearDeviceMetricsOverride',
  'Emulation.setTouchEmulationEnabled',
  'Emulation.setUserAgentOverride',
  'Emulation.setLocaleOverride',
  'Emulation.setTimezoneOverride',
  // The wipe between teams of a launched browser (wipe-browser-state.ts): it removes storage,
  // Storage Buckets' names included, and reads nothing. Never sent in a donated browser.
  'Storage.clearDataForStorageKey',
]);

export class CdpMethodNotAllowedError extends Error {
  constructor(method: string) {
    super(`CDP method ${method} is not on the extension's allowlist`);
    this.name = 'CdpMethodNotAllowedError';
  }
}

/** Throws unless `method` is on the allowlist; every `send` goes through here. */
export function assertCdpMethodAllowed(method: string): void {
  if (!ALLOWED_CDP_METHODS.has(method)) throw new CdpMethodNotAllowedError(method);
}
