import { COOKIE_BANNER_SELECTORS } from '../../../extension/utils/cookie-banners';

/**
 * Removes from a parsed page what a browser would not display, as the extension's capture does
 * with computed styles (capture-page.ts): elements the user-agent stylesheet hides, `hidden`,
 * inline `display:none` / `visibility:hidden`, and elements that top-level rules of the page's own
 * `<style>` elements hide. Rules inside @media and the like, pseudo-class selectors and external
 * stylesheets are not evaluated: a browser-free approximation, kept on the side of showing text.
 * With `cookieBanners`, the consent banners a browser task hides under `blockAds` go too.
 */
export function removeHidden(document: Document, { cookieBanners }: { cookieBanners: boolean }): void {
  const hidden = new Set<Element>();
  const mark = (selector: string) => {
    try {
      for (const element of Array.from(document.body.querySelectorAll(selector))) hidden.add(element);
    } catch {
      // A selector linkedom cannot read is one we cannot honour; the element stays.
    }
  };
  mark(USER_AGENT_HIDDEN);
  if (cookieBanners) for (const selector of COOKIE_BANNER_SELECTORS) mark(selector);
  for (const element of Array.from(document.body.querySelectorAll('[style]'))) {
    if (HIDING_DECLARATION.test(element.getAttribute('style') ?? '')) hidden.add(element);
  }
  for (const style of Array.from(document.querySelectorAll('style'))) {
    for (const selector of hidingSelectors(style.textContent ?? '')) mark(selector);
  }
  for (const element of hidden) element.remove();
}

/** What Chromium's own stylesheet gives display:none inside <body> with scripting on. */
const USER_AGENT_HIDDEN = [
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
].join(', ');

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
