import { words } from './word-bag-score';

/**
 * OCR word accuracy as OCR evaluations count it: 1 − WER, where WER is the word-level edit
 * distance (substitutions, insertions, deletions, by Levenshtein) between the known text and what
 * OCR read, over the known text's word count. Words are lower-cased runs of letters and digits, so
 * punctuation and Markdown's marks (`##`) are not counted. It may go below zero when OCR adds much.
 */
export function wordAccuracy(
  truth: string,
  read: string,
): { accuracy: number; words: number; errors: number } {
  const expected = words(truth);
  const got = words(read);
  let previous = Array.from({ length: got.length + 1 }, (_, index) => index);
  for (let i = 1; i <= expected.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= got.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (expected[i - 1] === got[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  const errors = previous[got.length] ?? 0;
  return {
    accuracy: expected.length === 0 ? 1 : 1 - errors / expected.length,
    words: expected.length,
    errors,
  };
}
