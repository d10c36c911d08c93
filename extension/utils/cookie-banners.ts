/**
 * Containers of widespread consent-management platforms (OneTrust, Cookiebot, Usercentrics,
 * Quantcast, TrustArc, Didomi, Osano, Sourcepoint, Google Funding Choices, cookieconsent,
 * CookieYes, Complianz, Borlabs, Iubenda). This hides banners; it does not answer them:
 * @duckduckgo/autoconsent (MPL-2.0), which clicks "reject", needs a content script and a
 * messaging loop of its own and is not integrated yet.
 */
export const COOKIE_BANNER_SELECTORS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '#CybotCookiebotDialog',
  '#CybotCookiebotDialogBodyUnderlay',
  '#usercentrics-root',
  '#usercentrics-cmp-ui',
  '.qc-cmp2-container',
  '#qc-cmp2-container',
  '#truste-consent-track',
  '.truste_overlay',
  '.truste_box_overlay',
  '#didomi-host',
  '.osano-cm-window',
  '[id^="sp_message_container_"]',
  '.fc-consent-root',
  '.cc-window',
  '.cc-banner',
  '#cookie-law-info-bar',
  '.cky-consent-container',
  '.cky-overlay',
  '#cmplz-cookiebanner-container',
  '#BorlabsCookieBox',
  '#iubenda-cs-banner',
] as const;

/** Runs in the page before its scripts (Page.addScriptToEvaluateOnNewDocument): self-contained. */
export function hideCookieBanners(selectors: readonly string[]): void {
  const style = document.createElement('style');
  style.textContent = `${selectors.join(',')}{display:none!important}`;
  // Banners lock scrolling while open; hidden, they must not keep the page from scrolling.
  style.textContent += 'html,body{overflow:auto!important}';
  // Scripts added this way run before the parser has made even the root element.
  const insert = () => {
    const root = document.head ?? document.documentElement;
    if (root === null) return false;
    root.appendChild(style);
    return true;
  };
  if (insert()) return;
  const observer = new MutationObserver(() => {
    if (insert()) observer.disconnect();
  });
  observer.observe(document, { childList: true });
}
