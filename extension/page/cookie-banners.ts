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

/** Style sheet rules that hide the banners and undo the scroll lock they put on the page. */
export function cookieBannerCss(selectors: readonly string[] = COOKIE_BANNER_SELECTORS): string {
  return (
    `${selectors.join(',')}{display:none!important}` +
    // Banners lock scrolling while open; hidden, they must not keep the page from scrolling.
    'html,body{overflow:auto!important}'
  );
}

/**
 * Runs in the page before its scripts (Page.addScriptToEvaluateOnNewDocument): self-contained. The
 * rules go in a constructed style sheet adopted by the document, not in a `<style>` element: an
 * element would be part of the page's HTML, and `rawHtml` must be the page as the page has it.
 * Tasks without the debugger adopt the same rules at capture (capture-page.ts).
 */
export function hideCookieBanners(css: string): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
