/**
 * The Article Extraction Benchmark's metric (its README, after upstream `evaluate.py`): texts are
 * tokenised into Python-regex `\w+` runs, each becomes a multiset of 4-token shingles, and a page
 * scores tp/fp/fn counts normalised to sum to 1.
 */
const SHINGLE_TOKENS = 4;
/** Python's Unicode `\w`: letters, digits and other numbers, underscore. */
const WORD = /[\p{L}\p{N}_]+/gu;

export interface PageScore {
  tp: number;
  fp: number;
  fn: number;
}

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

function shingles(text: string): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  // Like upstream, a text shorter than one shingle still yields one (possibly empty, then skipped).
  for (let index = 0; index < Math.max(1, tokens.length - SHINGLE_TOKENS + 1); index += 1) {
    const shingle = tokens.slice(index, index + SHINGLE_TOKENS).join(' ');
    if (shingle !== '') counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
  }
  return counts;
}

export function scorePage(truth: string, predicted: string): PageScore {
  const expected = shingles(truth);
  const got = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...expected.keys(), ...got.keys()])) {
    const want = expected.get(key) ?? 0;
    const have = got.get(key) ?? 0;
    tp += Math.min(want, have);
    fp += Math.max(0, have - want);
    fn += Math.max(0, want - have);
  }
  const sum = tp + fp + fn;
  return sum === 0 ? { tp, fp, fn } : { tp: tp / sum, fp: fp / sum, fn: fn / sum };
}

export interface Summary {
  precision: number;
  recall: number;
  f1: number;
  /** Pages whose token sequence equals the ground truth's exactly. */
  accuracy: number;
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/** Precision is averaged over pages that predicted something, recall over pages with a truth (upstream). */
export function summarize(scores: PageScore[], exactMatches: number): Summary {
  const precision = mean(scores.filter((s) => s.tp + s.fp > 0).map((s) => s.tp / (s.tp + s.fp)));
  const recall = mean(scores.filter((s) => s.tp + s.fn > 0).map((s) => s.tp / (s.tp + s.fn)));
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, accuracy: scores.length === 0 ? 0 : exactMatches / scores.length };
}
