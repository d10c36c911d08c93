import { resolveUrl } from './resolve-url';

/**
 * Rewrites every `href`, `src` and `srcset` under `root` to absolute URLs, so the HTML and the
 * Markdown made from it still work away from the page. Values that do not resolve stay as they are.
 */
export function absolutizeUrls(root: ParentNode, baseUrl: string): void {
  for (const attribute of ['href', 'src'] as const) {
    for (const element of root.querySelectorAll(`[${attribute}]`)) {
      const value = element.getAttribute(attribute) ?? '';
      const absolute = resolveUrl(value, baseUrl);
      if (absolute !== undefined && absolute !== value) element.setAttribute(attribute, absolute);
    }
  }
  for (const element of root.querySelectorAll('[srcset]')) {
    element.setAttribute('srcset', absolutizeSrcset(element.getAttribute('srcset') ?? '', baseUrl));
  }
}

/**
 * Parses a srcset the way HTML's "parse a srcset attribute" does: a candidate's URL runs to the
 * next whitespace (so commas inside it, as in `a.jpg?w=1,2`, are kept) unless the URL itself ends
 * in a comma; its descriptors run to the next comma outside parentheses.
 * https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute
 */
export function absolutizeSrcset(srcset: string, baseUrl: string): string {
  return srcsetCandidates(srcset)
    .map(({ url, descriptors }) => {
      const absolute = resolveUrl(url, baseUrl) ?? url;
      return descriptors ? `${absolute} ${descriptors}` : absolute;
    })
    .join(', ');
}

/** The candidates of a srcset, parsed as described above. */
export function srcsetCandidates(srcset: string): Array<{ url: string; descriptors: string }> {
  const candidates: Array<{ url: string; descriptors: string }> = [];
  let position = 0;
  const at = (index: number) => srcset.charAt(index);
  while (position < srcset.length) {
    while (position < srcset.length && /[\s,]/.test(at(position))) position++;
    if (position >= srcset.length) break;
    const urlStart = position;
    while (position < srcset.length && !/\s/.test(at(position))) position++;
    let url = srcset.slice(urlStart, position);
    let descriptors = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const descriptorStart = position;
      let inParentheses = false;
      while (position < srcset.length && (inParentheses || at(position) !== ',')) {
        if (at(position) === '(') inParentheses = true;
        else if (at(position) === ')') inParentheses = false;
        position++;
      }
      descriptors = srcset.slice(descriptorStart, position).trim();
    }
    candidates.push({ url, descriptors });
  }
  return candidates;
}
