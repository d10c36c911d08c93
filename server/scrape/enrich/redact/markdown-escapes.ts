/** ASCII punctuation, which CommonMark lets a backslash escape (and Tabhive's Markdown escapes some of). */
const ESCAPABLE = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/**
 * Text as it reads without Markdown's backslash escapes (`john\_doe@example.com` is the address
 * `john_doe@example.com`), and for each character of it, where it stands in the original: the
 * detectors run on the text as read, and the spans they find are replaced in the text as written.
 * `origin` is undefined when nothing was escaped (the two are the same).
 */
export function withoutEscapes(text: string): { view: string; origin: number[] | undefined } {
  if (!text.includes('\\')) return { view: text, origin: undefined };
  const chars: string[] = [];
  const origin: number[] = [];
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '\\' && ESCAPABLE.has(text[index + 1] ?? '')) index++;
    chars.push(text[index] ?? '');
    origin.push(index);
  }
  return { view: chars.join(''), origin };
}
