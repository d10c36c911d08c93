const SNIPPET_CHARS = 200;

/** Markdown syntax that would only clutter a one-line snippet. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|~]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * About 200 characters of the page's text around the first query word it contains (the start of
 * the text when none occurs), cut at word boundaries, for results whose page has no description.
 */
export function makeSnippet(markdown: string, queryWords: readonly string[]): string {
  const text = plainText(markdown);
  if (text.length <= SNIPPET_CHARS) return text;
  const lower = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let at = -1;
  for (const word of queryWords) {
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').exec(
      lower,
    );
    if (match !== null && (at === -1 || match.index < at)) at = match.index;
  }
  // Folding diacritics can shift offsets a little; the snippet only needs to be near the word.
  let start = Math.max(0, Math.min(at === -1 ? 0 : at - 60, text.length - SNIPPET_CHARS));
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
