import { type ParsedQuery, type RankablePage, rankPages, tokenize } from '../../../platform/text';
import { STOP_WORDS } from './extractive-summary';

/**
 * Passages of a page's Markdown ranked against a question, for the highlights format and for
 * answers without a model: extractive, so every passage is the page's own text.
 */

/** A passage longer than this is cut at sentence ends, so that one passage answers one thing. */
const MAX_PASSAGE_CHARS = 700;
/** Bounds for hostile or huge pages and questions: the page's first two million characters, … */
const MAX_MARKDOWN_CHARS = 2_000_000;
const MAX_PASSAGES = 5_000;
/** … and the question's first distinct content words (ranking costs words × passages). */
const MAX_QUERY_TERMS = 32;
/** Passages given, and how close to the best a passage must score to be one of them. */
export const MAX_HIGHLIGHTS = 3;
const MIN_SHARE_OF_BEST = 0.5;

interface Passage extends RankablePage {
  /** Position in the page. */
  index: number;
  /** The heading line just above the passage, as written, when it is the first under it. */
  headingLine?: string;
}

const HEADING = /^#{1,6}\s+(.*?)\s*#*\s*$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

/** Splits a block longer than MAX_PASSAGE_CHARS at sentence ends (or, failing that, at spaces). */
function cut(block: string): string[] {
  if (block.length <= MAX_PASSAGE_CHARS) return [block];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of block.split(/(?<=[.!?])\s+/)) {
    let rest = sentence;
    while (rest.length > MAX_PASSAGE_CHARS) {
      const at = rest.lastIndexOf(' ', MAX_PASSAGE_CHARS);
      const end = at > MAX_PASSAGE_CHARS / 2 ? at : MAX_PASSAGE_CHARS;
      if (current !== '') pieces.push(current);
      pieces.push(rest.slice(0, end).trim());
      current = '';
      rest = rest.slice(end).trim();
    }
    if (current !== '' && current.length + rest.length + 1 > MAX_PASSAGE_CHARS) {
      pieces.push(current);
      current = rest;
    } else current = current === '' ? rest : `${current} ${rest}`;
  }
  if (current !== '') pieces.push(current);
  return pieces.filter((piece) => piece !== '');
}

/**
 * The page's passages in order: its Markdown blocks (paragraphs, list items, tables, code), long
 * ones cut at sentence ends. Headings are not passages; each passage carries the heading it sits
 * under as its title, so that a question about a section finds the section's text.
 */
export function splitPassages(markdown: string): Passage[] {
  const passages: Passage[] = [];
  let heading = '';
  let headingLine: string | undefined;
  for (const block of markdown.slice(0, MAX_MARKDOWN_CHARS).split(/\n[ \t]*\n/)) {
    const text = block.trim();
    if (text === '' || RULE.test(text)) continue;
    const lines = text.split('\n');
    const title = HEADING.exec(lines[0] ?? '');
    if (title !== null) {
      heading = title[1] ?? '';
      headingLine = lines[0];
      if (lines.length === 1) continue;
    }
    const body = title === null ? text : lines.slice(1).join('\n').trim();
    for (const piece of cut(body)) {
      if (passages.length >= MAX_PASSAGES) return passages;
      const words = tokenize(piece).length;
      if (words === 0) continue;
      // rankPages reads a page's URL for its operators; passages have none, and no query here uses them.
      passages.push({
        url: 'x:',
        title: heading,
        description: '',
        text: piece,
        length: words,
        index: passages.length,
        ...(headingLine === undefined ? {} : { headingLine }),
      });
      headingLine = undefined;
    }
  }
  return passages;
}

/** The question's content words (stop words dropped, unless nothing else is left), at most MAX_QUERY_TERMS. */
export function queryTerms(question: string): string[] {
  const words = [...new Set(tokenize(question.slice(0, 20_000)))].filter((word) => word.length > 1);
  const content = words.filter((word) => !STOP_WORDS.has(word));
  return (content.length > 0 ? content : words).slice(0, MAX_QUERY_TERMS);
}

/**
 * The passages that best answer `question`, at most `count`, in page order: ranked with the
 * search index's BM25 (server/platform/text/rank-pages.ts), each passage a document, and kept when it
 * scores at least half of the best. A passage found by words only its heading holds comes with
 * its heading (`### Mead` over `5`), so that it says what it is about. Empty when no passage holds a word of
 * the question.
 */
export function bestPassages(markdown: string, question: string, count = MAX_HIGHLIGHTS): string[] {
  const terms = queryTerms(question);
  if (terms.length === 0) return [];
  const passages = splitPassages(markdown);
  const query: ParsedQuery = {
    terms,
    phrases: [],
    excludedTerms: [],
    excludedPhrases: [],
    sites: [],
    excludedSites: [],
    inUrl: [],
    inTitle: [],
    fileTypes: [],
  };
  const ranked = rankPages(query, passages, passages.length).filter(({ score }) => score > 0);
  const best = ranked[0]?.score ?? 0;
  return ranked
    .filter(({ score }) => score >= best * MIN_SHARE_OF_BEST)
    .slice(0, count)
    .map(({ page }) => page)
    .sort((a, b) => a.index - b.index)
    .map(({ text, title, headingLine }) => {
      if (headingLine === undefined) return text;
      const own = new Set(tokenize(text));
      const byHeading = tokenize(title).some((word) => terms.includes(word) && !own.has(word));
      return byHeading ? `${headingLine}\n\n${text}` : text;
    });
}
