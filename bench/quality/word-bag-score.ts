/**
 * The WCXB metric (its README, after the benchmark's evaluate.py): each text becomes a bag of
 * lower-cased words, and a page scores the F1 of the two bags' overlap. `with` snippets are
 * sentences of the main content that must appear, `without` snippets boilerplate that must not;
 * a snippet counts as present when its words appear in the same order, as whole words (evaluate.py
 * looks for the snippet's exact characters, which Markdown's emphasis and link syntax would break).
 */
const WORD = /[\p{L}\p{N}_]+/gu;

export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

function bag(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

export interface WordBagScore {
  precision: number;
  recall: number;
  f1: number;
}

/** As evaluate.py: a page whose truth has no words scores 1 when nothing is predicted, else 0. */
export function wordBagScore(truth: string, predicted: string): WordBagScore {
  const expected = bag(words(truth));
  const got = words(predicted);
  if (expected.size === 0) {
    const score = got.length === 0 ? 1 : 0;
    return { precision: score, recall: score, f1: score };
  }
  let overlap = 0;
  for (const [token, have] of bag(got)) overlap += Math.min(have, expected.get(token) ?? 0);
  const truthCount = [...expected.values()].reduce((a, b) => a + b, 0);
  const precision = got.length === 0 ? 0 : overlap / got.length;
  const recall = truthCount === 0 ? 0 : overlap / truthCount;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** The text as one string of words between spaces, so a snippet matches whole words in order. */
export function wordLine(text: string): string {
  return ` ${words(text).join(' ')} `;
}

/** Share of `snippets` found in `line` (a {@link wordLine}); undefined when there are none to find. */
export function snippetShare(line: string, snippets: readonly string[]): number | undefined {
  const usable = snippets.map(wordLine).filter((snippet) => snippet.trim() !== '');
  if (usable.length === 0) return undefined;
  return usable.filter((snippet) => line.includes(snippet)).length / usable.length;
}
