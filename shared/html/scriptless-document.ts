import { parseHtml } from './parse-html';

/** Less text than this in a `<noscript>` is a "please turn on JavaScript" note, not the page. */
const MIN_NOSCRIPT_CHARS = 500;

/**
 * The page as a reader without scripts would get it: `<noscript>` elements replaced by what they
 * hold. Forum engines (Discourse, Flarum) and some shops serve the whole server-rendered page
 * there for crawlers and render the live page with scripts. Undefined when no `<noscript>` holds
 * more than a note, so callers fall back to it only where it can help.
 */
export function scriptlessDocument(html: string): Document | undefined {
  if (!/<noscript/i.test(html)) return undefined;
  const document = parseHtml(html);
  const noscripts = Array.from(document.body.querySelectorAll('noscript'));
  const text = noscripts.reduce((sum, element) => sum + (element.textContent ?? '').trim().length, 0);
  if (text < MIN_NOSCRIPT_CHARS) return undefined;
  for (const noscript of noscripts) {
    if (!noscript.isConnected) continue;
    // linkedom parses a noscript's content as markup (scripting off); a browser would give text.
    const inner =
      noscript.children.length > 0
        ? Array.from(noscript.childNodes)
        : parseHtml(noscript.textContent ?? '').body.childNodes;
    noscript.replaceWith(...Array.from(inner));
  }
  return document;
}
