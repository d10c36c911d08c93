/** Sentences in a summary: a few, more for long pages. */
const MIN_SENTENCES = 2;
const MAX_SENTENCES = 5;
const MIN_SENTENCE_WORDS = 4;
const MAX_SENTENCES_SCORED = 2_000;

/** Words too common to say what a page is about (English; other languages still rank by frequency). */
export const STOP_WORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below
  between both but by can could did do does doing down during each few for from further had has have
  having he her here hers him his how i if in into is it its itself just me more most my no nor not
  now of off on once only or other our ours out over own same she should so some such than that the
  their theirs them then there these they this those through to too under until up very was we were
  what when where which while who whom why will with would you your yours`.split(/\s+/),
);

/** Markdown reduced to prose: no code blocks, tables, images, link targets or markup characters. */
function plainText(markdown: string): string[] {
  return markdown
    .replace(/```[\s\S]*?```/g, '\n')
    .split('\n')
    .filter((line) => !/^\s*(\||#{1,6}\s|[-*_]{3,}\s*$)/.test(line))
    .map((line) =>
      line
        .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
        .replace(/^\s*>\s?/, '')
        .replace(/[*_`]/g, '')
        .trim(),
    );
}

/** Sentences of the page's paragraphs, in order; list items and short fragments count as sentences only when long enough. */
export function splitSentences(markdown: string): string[] {
  const sentences: string[] = [];
  for (const paragraph of plainText(markdown)
    .join('\n')
    .split(/\n\s*\n|\n/)) {
    for (const sentence of paragraph.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“])/u)) {
      const trimmed = sentence.trim();
      if (trimmed.split(/\s+/).length >= MIN_SENTENCE_WORDS) sentences.push(trimmed);
    }
  }
  return sentences.slice(0, MAX_SENTENCES_SCORED);
}

const words = (sentence: string) =>
  (sentence.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => word.length > 1 && !STOP_WORDS.has(word),
  );

/**
 * An extractive summary: sentences ranked by how many of the page's frequent words they carry
 * (normalised by length, with a small bonus for coming early, where pages say what they are),
 * the best few kept in page order. Deterministic: ties go to the earlier sentence.
 */
export function extractiveSummary(markdown: string): string {
  const sentences = splitSentences(markdown);
  if (sentences.length === 0) return '';
  const frequency = new Map<string, number>();
  for (const sentence of sentences)
    for (const word of new Set(words(sentence))) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const top = Math.max(1, ...frequency.values());

  const scored = sentences.map((sentence, index) => {
    const terms = words(sentence);
    const weight = terms.reduce((sum, word) => sum + (frequency.get(word) ?? 0) / top, 0);
    const position = 1 + 0.5 * (1 - index / sentences.length);
    return { index, score: (weight / Math.sqrt(Math.max(terms.length, 1))) * position };
  });
  const count = Math.min(
    sentences.length,
    Math.max(MIN_SENTENCES, Math.min(MAX_SENTENCES, Math.round(sentences.length / 8))),
  );
  return scored
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count)
    .sort((a, b) => a.index - b.index)
    .map(({ index }) => sentences[index])
    .join(' ');
}
