import { COOKIE_BANNER_SELECTORS } from '../../../../extension/page/cookie-banners';
import { CONTENT_PANELS } from '../../../../shared/html/content-panels';
import { createSelectorList } from '../../../../shared/html/selector-list';

/**
 * Removes from a parsed page what a browser would not display, as the extension's capture does
 * with computed styles (capture-page.ts): elements the user-agent stylesheet hides, `hidden`,
 * inline `display:none` / `visibility:hidden`, and elements that top-level rules of the page's own
 * `<style>` elements hide. Rules inside @media and the like, pseudo-class selectors and external
 * stylesheets are not evaluated: a browser-free approximation, kept on the side of showing text.
 * With `cookieBanners`, the consent banners a browser task hides under `blockAds` go too. Folded
 * panels (tabs, accordions: {@link CONTENT_PANELS}) stay, as in the capture.
 */
export function removeHidden(document: Document, { cookieBanners }: { cookieBanners: boolean }): void {
  const hidden = new Set<Element>();
  for (const element of (cookieBanners ? HIDDEN_OR_BANNER : USER_AGENT_HIDDEN).selectAll(document.body)) {
    hidden.add(element);
  }
  for (const element of Array.from(document.body.querySelectorAll('[style]'))) {
    if (HIDING_DECLARATION.test(element.getAttribute('style') ?? '')) hidden.add(element);
  }
  // Every query walks the whole body, so the page's selectors are asked as one list; a selector
  // linkedom cannot read is one we cannot honour, and is left out of it (its element stays).
  const pageSelectors = Array.from(document.querySelectorAll('style'))
    .flatMap((style) => hidingSelectors(style.textContent ?? ''))
    .filter((selector) => canRead(document.body, selector));
  if (pageSelectors.length > 0) {
    for (const element of Array.from(document.body.querySelectorAll(pageSelectors.join(', ')))) {
      hidden.add(element);
    }
  }
  const removed = [...hidden].filter((element) => !element.matches(CONTENT_PANELS));
  // A page must never lose its whole text to this step (issue 35's safety rail): a rule of the
  // page's own, a banner selector or a `hidden` wrapper that a script would lift can match an
  // element around everything. Then only what is never text (scripts, styles) goes.
  const keepsText = leavesText(document.body, removed);
  for (const element of removed) if (keepsText || NEVER_TEXT.has(element.localName)) element.remove();
}

/** Elements whose content is never displayed text, whatever hides or shows them. */
const NEVER_TEXT = new Set(['script', 'style', 'template', 'noscript']);

/**
 * Below this share of the page's text left, removing `removed` counts as emptying the page: what
 * remains then is a footer line or a stray label, not a page.
 */
const EMPTIED_SHARE = 0.02;

/** Whether removing `removed` leaves at least EMPTIED_SHARE of the body's displayed text. */
function leavesText(body: HTMLElement, removed: readonly Element[]): boolean {
  const chars = (element: Element) => (element.textContent ?? '').replace(/\s+/g, '').length;
  const removedSet = new Set(removed);
  let never = 0;
  let gone = 0;
  for (const element of removed) {
    // Only the outermost removed element counts, once.
    let ancestor = element.parentElement;
    while (ancestor !== null && !removedSet.has(ancestor)) ancestor = ancestor.parentElement;
    if (ancestor !== null) continue;
    if (NEVER_TEXT.has(element.localName)) never += chars(element);
    else gone += chars(element);
  }
  const text = chars(body) - never;
  return text <= 0 || text - gone >= text * EMPTIED_SHARE;
}

/** Whether linkedom parses `selector`: matching compiles it, and compiling throws when it cannot. */
function canRead(element: Element, selector: string): boolean {
  try {
    element.matches(selector);
    return true;
  } catch {
    return false;
  }
}

/** What Chromium's own stylesheet gives display:none inside <body> with scripting on. */
const USER_AGENT_HIDDEN_SELECTORS = [
  '[hidden]:not([hidden="until-found" i])',
  'script',
  'style',
  'template',
  'noscript',
  'datalist',
  'input[type="hidden" i]',
  'area',
  'param',
  'link',
  'meta',
  'title',
  'base',
  'dialog:not([open])',
];
const USER_AGENT_HIDDEN = createSelectorList(USER_AGENT_HIDDEN_SELECTORS);
const HIDDEN_OR_BANNER = createSelectorList([...USER_AGENT_HIDDEN_SELECTORS, ...COOKIE_BANNER_SELECTORS]);

const HIDING_DECLARATION =
  /(^|;|\{)\s*(display\s*:\s*none|visibility\s*:\s*(hidden|collapse))\s*(!important\s*)?(;|$|\})/i;

/** Selectors of top-level rules that hide what they match; none with pseudo-classes or -elements. */
export function hidingSelectors(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const selectors: string[] = [];
  let depth = 0;
  let ruleStart = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '{') {
      if (depth === 0) {
        const prelude = text.slice(ruleStart, index).trim();
        const end = text.indexOf('}', index);
        if (
          !prelude.startsWith('@') &&
          end !== -1 &&
          HIDING_DECLARATION.test(`;${text.slice(index + 1, end)};`)
        ) {
          for (const selector of prelude.split(',')) {
            const trimmed = selector.trim();
            if (trimmed !== '' && !trimmed.includes(':')) selectors.push(trimmed);
          }
        }
      }
      depth += 1;
    } else if (char === '}') {
      depth = Math.max(0, depth - 1);
      if (depth === 0) ruleStart = index + 1;
    } else if (char === ';' && depth === 0) {
      ruleStart = index + 1;
    }
  }
  return selectors;
}
