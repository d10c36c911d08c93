import type { ParsedQuery } from './parse-query';
import { tokenize } from './tokenize';

/** What ranking reads of an indexed page. */
export interface RankablePage {
  url: string;
  title: string;
  description: string;
  text: string;
  length: number;
}

// BM25's usual constants: term-frequency saturation and length normalisation.
const K1 = 1.2;
const B = 0.75;
/** A word in the title counts as this many words of text, one in the description as that many. */
const TITLE_WEIGHT = 3;
const DESCRIPTION_WEIGHT = 2;
/** Added per exact phrase a page contains, on top of its words' scores. */
const PHRASE_BONUS = 1;

interface Fields {
  title: string[];
  description: string[];
  text: string[];
  all: string[];
}

const fieldsOf = (page: RankablePage): Fields => {
  const title = tokenize(page.title);
  const description = tokenize(page.description);
  const text = tokenize(page.text);
  return { title, description, text, all: [...title, ...description, ...text] };
};

function containsSequence(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return true;
  outer: for (let start = 0; start + phrase.length <= words.length; start += 1) {
    for (let offset = 0; offset < phrase.length; offset += 1) {
      if (words[start + offset] !== phrase[offset]) continue outer;
    }
    return true;
  }
  return false;
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/** `site:` values are a host (subdomains included) with an optional path prefix. */
function onSite(url: URL, site: string): boolean {
  const slash = site.indexOf('/');
  const host = slash === -1 ? site : site.slice(0, slash);
  const path = slash === -1 ? '' : site.slice(slash);
  const pageHost = url.hostname.toLowerCase().replace(/^www\./, '');
  const hostMatches = pageHost === host || pageHost.endsWith(`.${host}`);
  return hostMatches && (path === '' || url.pathname.toLowerCase().startsWith(path));
}

/** Whether the page passes every filtering operator of the query (site:, inurl:, -word, "phrase" …). */
function passesFilters(query: ParsedQuery, page: RankablePage, fields: Fields): boolean {
  let url: URL;
  try {
    url = new URL(page.url);
  } catch {
    return false;
  }
  const lowerUrl = safeDecode(page.url).toLowerCase();
  const words = new Set(fields.all);
  const titleWords = new Set(fields.title);
  return (
    (query.sites.length === 0 || query.sites.some((site) => onSite(url, site))) &&
    !query.excludedSites.some((site) => onSite(url, site)) &&
    query.inUrl.every((word) => lowerUrl.includes(word)) &&
    query.inTitle.every((word) => titleWords.has(word)) &&
    (query.fileTypes.length === 0 ||
      query.fileTypes.some((type) => url.pathname.toLowerCase().endsWith(`.${type}`))) &&
    query.phrases.every((phrase) => containsSequence(fields.all, phrase)) &&
    !query.excludedTerms.some((word) => words.has(word)) &&
    !query.excludedPhrases.some((phrase) => containsSequence(fields.all, phrase)) &&
    (query.terms.length === 0 || query.terms.some((word) => words.has(word) || lowerUrl.includes(word)))
  );
}

export interface RankedPage<P extends RankablePage> {
  page: P;
  score: number;
}

/**
 * Filters pages by the query's operators and orders the rest by relevance: BM25 over title
 * (weighted), description (weighted) and text, for the query's words, phrase words and intitle
 * words; pages holding an exact phrase get a bonus, and pages that hold more of the words rank
 * above pages that hold fewer. `totalPages` is the size of the team's index (the N of idf); the
 * candidates hold every page with any query word, so document frequencies come from them.
 * Ties keep the candidates' order (newest first).
 */
export function rankPages<P extends RankablePage>(
  query: ParsedQuery,
  candidates: readonly P[],
  totalPages: number,
): RankedPage<P>[] {
  const queryWords = [...new Set([...query.terms, ...query.phrases.flat(), ...query.inTitle])];
  const analysed = candidates
    .map((page) => ({ page, fields: fieldsOf(page) }))
    .filter(({ page, fields }) => passesFilters(query, page, fields));
  if (analysed.length === 0) return [];

  const documentFrequency = new Map<string, number>();
  for (const { fields } of analysed) {
    for (const word of new Set(fields.all)) {
      if (queryWords.includes(word)) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    }
  }
  const pages = Math.max(totalPages, analysed.length);
  const averageLength =
    analysed.reduce((sum, { page }) => sum + Math.max(1, page.length), 0) / analysed.length;

  const scored = analysed.map(({ page, fields }, order) => {
    const count = (words: readonly string[], word: string) => words.filter((w) => w === word).length;
    let score = 0;
    let matched = 0;
    for (const word of queryWords) {
      const frequency =
        TITLE_WEIGHT * count(fields.title, word) +
        DESCRIPTION_WEIGHT * count(fields.description, word) +
        count(fields.text, word);
      if (frequency === 0) continue;
      matched += 1;
      const df = documentFrequency.get(word) ?? 0;
      const idf = Math.log(1 + (pages - df + 0.5) / (df + 0.5));
      const norm = K1 * (1 - B + (B * Math.max(1, page.length)) / averageLength);
      score += (idf * frequency * (K1 + 1)) / (frequency + norm);
    }
    score += PHRASE_BONUS * query.phrases.length;
    const coverage = queryWords.length === 0 ? 1 : matched / queryWords.length;
    return { page, score: score * (0.5 + 0.5 * coverage), order };
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map(({ page, score }) => ({ page, score }));
}
