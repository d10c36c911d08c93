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

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Where `word` first occurs at the start of a word of `text` (not preceded by a letter or digit),
 * or -1. A plain scan: the query is never compiled into a regular expression (docs/security.md#caller-patterns).
 */
function firstWordStart(text: string, word: string): number {
  if (word === '') return -1;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? '' : String.fromCodePoint(text.codePointAt(at - 1) ?? 0);
    // A low surrogate before `at` belongs to a character that starts one position earlier.
    const previous =
      /[\uDC00-\uDFFF]/.test(before) && at >= 2
        ? String.fromCodePoint(text.codePointAt(at - 2) ?? 0)
        : before;
    if (previous === '' || !LETTER_OR_DIGIT.test(previous)) return at;
  }
  return -1;
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
    const found = firstWordStart(lower, word);
    if (found !== -1 && (at === -1 || found < at)) at = found;
  }
  // Folding diacritics can shift offsets a little; the snippet only needs to be near the word.
  let start = Math.max(0, Math.min(at === -1 ? 0 : at - 60, text.length - SNIPPET_CHARS));
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
