/** Letters and digits of any script; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Lower-cased words of a text, in order, with diacritics folded (`café` → `cafe`) so that a query
 * typed without accents still finds the page. No stemming: the local index is small and exact
 * word matches rank more predictably.
 */
export function tokenize(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.match(WORD) ?? [];
}
