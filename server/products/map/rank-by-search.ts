import type { MapLink } from './map-link';

/** Where a search word counts most: the URL's path names the page, the title describes it. */
const WEIGHTS = { path: 3, title: 2, description: 1 } as const;
/** Words that say nothing about which page is meant. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'to',
  'in',
  'on',
  'for',
  'with',
  'www',
  'http',
  'https',
  'html',
  'htm',
  'php',
]);

/** Lower-case word stems: letters and digits of any script, a plural `s` dropped. */
export function searchTerms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => !STOP_WORDS.has(word))
    .map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
}

function pathText(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname.split('.').slice(0, -2).join(' ')} ${parsed.pathname} ${parsed.search}`;
  } catch {
    return url;
  }
}

/**
 * How well a link answers `search`: a weighted cosine between the search words and the words of
 * the link's path, title and description, plus a bonus when the whole search phrase appears.
 * 0 means no search word occurs at all.
 */
export function relevance(link: MapLink, query: string[], phrase: string): number {
  if (query.length === 0) return 0;
  const weights = new Map<string, number>();
  const add = (text: string | undefined, weight: number) => {
    for (const term of searchTerms(text ?? '')) weights.set(term, (weights.get(term) ?? 0) + weight);
  };
  add(pathText(link.url), WEIGHTS.path);
  add(link.title, WEIGHTS.title);
  add(link.description, WEIGHTS.description);
  const queryCounts = new Map<string, number>();
  for (const term of query) queryCounts.set(term, (queryCounts.get(term) ?? 0) + 1);
  let dot = 0;
  for (const [term, count] of queryCounts) dot += count * (weights.get(term) ?? 0);
  if (dot === 0) return 0;
  const norm = (values: Iterable<number>) =>
    Math.sqrt([...values].reduce((sum, value) => sum + value * value, 0));
  const cosine = dot / (norm(weights.values()) * norm(queryCounts.values()));
  const matched = [...queryCounts.keys()].filter((term) => weights.has(term)).length / queryCounts.size;
  const haystack = `${pathText(link.url)} ${link.title ?? ''}`.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  const phraseBonus = phrase.includes(' ') && haystack.includes(phrase) ? 0.5 : 0;
  // Covering every search word matters more than a short page name that repeats one of them.
  return matched + cosine + phraseBonus;
}

/** The links most relevant to `search` first; equally relevant links keep their order (a stable sort). */
export function rankBySearch<T extends MapLink>(links: readonly T[], search: string): T[] {
  const query = searchTerms(search);
  const phrase = search
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return links
    .map((link, index) => ({ link, index, score: relevance(link, query, phrase) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ link }) => link);
}
