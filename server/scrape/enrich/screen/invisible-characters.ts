/**
 * Characters a reader does not see but a model reads: zero-width characters that split words so a
 * filter misses them, Unicode tag characters that spell ASCII invisibly ("ASCII smuggling"), and
 * bidirectional overrides that show text reversed from how it is stored.
 */

/** Zero-width and invisible formatting characters (not the bidi marks, see below). */
const ZERO_WIDTH = /\u200B|\u200C|\u200D|\u2060|\u2061|\u2062|\u2063|\u2064|\uFEFF|\u00AD|\u180E/g;
/** Bidi embeddings, overrides and isolates; LRM/RLM (U+200E/F) are ordinary in right-to-left text. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/** Right-to-left or left-to-right override up to its pop (or the end of the text). */
const BIDI_OVERRIDE_RUN = /[\u202D\u202E]([^\u202C\u2069]{1,2000})/g;
/** Unicode tag characters U+E0000–E007F (a surrogate pair each in UTF-16). */
const TAG_CHARACTER = /\uDB40[\uDC00-\uDC7F]/g;
const TAG_RUN = /(?:\uDB40[\uDC00-\uDC7F]){1,4000}/g;
/** Emoji subdivision flags (🏴 + tag letters + cancel tag) are the one common honest use of tags. */
const FLAG_TAG_RUN = /\u{1F3F4}(?:\uDB40[\uDC20-\uDC7E]){1,8}\uDB40\uDC7F/gu;

/** The text as a model reads it: zero-width and bidi control characters removed. */
export function withoutInvisible(text: string): string {
  return text.replace(ZERO_WIDTH, '').replace(BIDI_CONTROLS, '');
}

/** Whether the text holds characters that withoutInvisible removes. */
export function hasInvisible(text: string): boolean {
  ZERO_WIDTH.lastIndex = 0;
  BIDI_CONTROLS.lastIndex = 0;
  return ZERO_WIDTH.test(text) || BIDI_CONTROLS.test(text);
}

/** What runs of tag characters spell (outside emoji flags), each at least `minLength` characters. */
export function smuggledAscii(text: string, minLength = 6): string[] {
  const withoutFlags = text.replace(FLAG_TAG_RUN, '');
  const spelled: string[] = [];
  for (const run of withoutFlags.match(TAG_RUN) ?? []) {
    const decoded = (run.match(TAG_CHARACTER) ?? [])
      .map((pair) => String.fromCharCode(pair.charCodeAt(1) - 0xdc00))
      .join('')
      .replace(/[^\x20-\x7E]/g, '');
    if (decoded.length >= minLength) spelled.push(decoded);
  }
  return spelled;
}

/** The runs under a bidi override, as a reader sees them (reversed for right-to-left). */
export function overriddenRuns(text: string): string[] {
  const runs: string[] = [];
  for (const match of text.matchAll(BIDI_OVERRIDE_RUN)) {
    const run = match[1] ?? '';
    runs.push(text[match.index] === '\u202E' ? [...run].reverse().join('') : run);
  }
  return runs;
}
