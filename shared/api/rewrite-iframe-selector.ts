const IFRAME = 'iframe';
const IFRAME_REPLACEMENT = 'div[data-original-tag="iframe"]';
const BEFORE = /[\s,>+~(]/;
const AFTER = /[\s.#[:,>+~)]/;

/**
 * The HTML pipeline turns every `<iframe>` into `<div data-original-tag="iframe">` holding the
 * frame's content, so `includeTags` / `excludeTags` selectors that name the iframe element are
 * rewritten to match that div (docs/wire-contract.md §3.1):
 *
 *   `iframe.video` → `div[data-original-tag="iframe"].video`
 *   `div > iframe, :not(iframe)` → `div > div[data-original-tag="iframe"], :not(div[data-original-tag="iframe"])`
 *
 * A token is rewritten when it is an `iframe` type selector (ASCII case-insensitive, as type
 * selectors are in HTML): it starts the selector or follows whitespace, `,`, `>`, `+`, `~` or `(`,
 * and ends the selector or is followed by whitespace, `.`, `#`, `[`, `:`, `,`, `>`, `+`, `~` or `)`.
 * So `.iframe`, `#iframe`, `my-iframe`, `iframe-wrapper`, `ns|iframe` stay as they are, and so
 * does any text inside `[…]` attribute selectors, quoted strings and backslash escapes.
 */
export function rewriteIframeSelector(selector: string): string {
  let out = '';
  let atBoundary = true;
  let i = 0;
  while (i < selector.length) {
    const char = selector.charAt(i);
    if (atBoundary && isIframeToken(selector, i)) {
      out += IFRAME_REPLACEMENT;
      i += IFRAME.length;
      atBoundary = false;
    } else if (char === '\\') {
      out += selector.slice(i, i + 2);
      i += 2;
      atBoundary = false;
    } else if (char === '"' || char === "'" || char === '[') {
      const end = skipOpaque(selector, i);
      out += selector.slice(i, end);
      i = end;
      atBoundary = false;
    } else {
      out += char;
      i += 1;
      atBoundary = BEFORE.test(char);
    }
  }
  return out;
}

function isIframeToken(selector: string, start: number): boolean {
  if (selector.slice(start, start + IFRAME.length).toLowerCase() !== IFRAME) return false;
  const next = selector.charAt(start + IFRAME.length);
  return next === '' || AFTER.test(next);
}

/** Index just past the quoted string or `[…]` block that starts at `start` (or the end). */
function skipOpaque(selector: string, start: number): number {
  const close = selector.charAt(start) === '[' ? ']' : selector.charAt(start);
  let quote = '';
  for (let i = start + 1; i < selector.length; i++) {
    const char = selector.charAt(i);
    if (char === '\\') i++;
    else if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === close) return i + 1;
    else if (close === ']' && (char === '"' || char === "'")) quote = char;
  }
  return selector.length;
}
