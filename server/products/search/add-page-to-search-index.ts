import type { IndexedPageSource, SearchIndexStore } from '../../platform/store';
import { tokenize } from '../../platform/text';

/** Markdown kept per page: enough for ranking and snippets, bounded so one huge page cannot bloat the index. */
export const MAX_INDEXED_TEXT_CHARS = 20_000;
/** Distinct words kept per page for lookups (the most frequent first). */
export const MAX_INDEXED_TERMS = 2_000;
const MAX_TITLE_CHARS = 500;
const MAX_DESCRIPTION_CHARS = 1_000;

export interface PageForSearchIndex {
  teamId: string;
  url: string;
  title: string;
  description?: string | undefined;
  markdown: string;
  /** `scrape` unless a person saved the page (the extension popup's "save"). */
  source?: IndexedPageSource;
}

/** The host and its parent domains, without `www.`: `docs.a.com` → `docs.a.com`, `a.com`, `com`. */
export function domainsOf(url: URL): string[] {
  const host = url.hostname
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  const labels = host.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}

/** Distinct words of the page, the most frequent first, at most MAX_INDEXED_TERMS. */
function distinctTerms(words: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_INDEXED_TERMS)
    .map(([word]) => word);
}

/**
 * Adds a page to its team's local search index (replacing an earlier version of the URL). The
 * scraper calls it for every page it produces without zeroDataRetention; the extension's "save
 * page" calls it for pages a person donates. Only http(s) pages are indexed.
 */
export async function addPageToSearchIndex(
  searchIndex: SearchIndexStore,
  { teamId, url, title, description = '', markdown, source = 'scrape' }: PageForSearchIndex,
): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return;
  parsed.hash = '';
  const text = markdown.slice(0, MAX_INDEXED_TEXT_CHARS);
  const shortTitle = title.trim().slice(0, MAX_TITLE_CHARS);
  const shortDescription = description.trim().slice(0, MAX_DESCRIPTION_CHARS);
  const words = [...tokenize(shortTitle), ...tokenize(shortDescription), ...tokenize(text)];
  await searchIndex.put({
    teamId,
    url: parsed.href,
    domains: domainsOf(parsed),
    title: shortTitle,
    description: shortDescription,
    text,
    // URL words always count for lookups (inurl:, a query naming the site), but not for the length.
    terms: [...new Set([...tokenize(`${parsed.hostname} ${parsed.pathname}`), ...distinctTerms(words)])],
    length: words.length,
    source,
  });
}
