import type { SearchIndexStore } from '../../platform/store';
import { makeSnippet } from './make-snippet';
import { normalizeSite, type ParsedQuery, rankPages, tokenize } from '../../platform/text';
import type { SearchProvider, WebResult } from './search-provider';
import { timeWindow } from './time-filter';

/** Pages read per query at most (newest first): bounds the work of one search on a big index. */
export const MAX_CANDIDATES = 1_000;
/** Words of a `related:` page's title and description used as the query. */
const RELATED_WORDS = 12;

/** `related:url` as words and sites: the page's own title and description words, or its site when it is not indexed. */
async function expandRelated(
  searchIndex: SearchIndexStore,
  teamId: string,
  query: ParsedQuery,
): Promise<{ query: ParsedQuery; exclude?: string }> {
  if (query.related === undefined) return { query };
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(query.related) ? query.related : `https://${query.related}`);
  } catch {
    return { query };
  }
  url.hash = '';
  const page =
    (await searchIndex.get(teamId, url.href)) ??
    (await searchIndex.get(teamId, url.href.replace(/^https:/, 'http:')));
  if (page === undefined)
    return { query: { ...query, sites: [...query.sites, normalizeSite(url.hostname)] } };
  const words = [...new Set(tokenize(`${page.title} ${page.description}`).filter((word) => word.length > 2))];
  return {
    query: { ...query, terms: [...query.terms, ...words.slice(0, RELATED_WORDS)] },
    exclude: page.url,
  };
}

/**
 * Searches the pages this Tabhive scraped, crawled or was given for the caller's team. Needs
 * nothing configured and works offline. `tbs` limits results to pages seen in its time window. Web results only: the index holds pages, not news items
 * or images.
 */
export function createLocalIndexProvider({ searchIndex }: { searchIndex: SearchIndexStore }): SearchProvider {
  return {
    name: 'local',
    async search({ parsed, sources, limit, teamId, tbs }) {
      if (!sources.includes('web')) return {};
      const { query, exclude } = await expandRelated(searchIndex, teamId, parsed);
      // inurl: matches inside URL words (`inurl:doc` finds /docs/), so it filters but cannot look up.
      const lookupWords = [...new Set([...query.terms, ...query.phrases.flat(), ...query.inTitle])];
      const siteHosts = query.sites.map((site) => site.split('/')[0]!).filter((host) => host !== '');
      const window = timeWindow(tbs);
      const [candidates, total] = await Promise.all([
        searchIndex.candidates({
          teamId,
          terms: lookupWords,
          domains: siteHosts,
          indexedFrom: window.from,
          indexedTo: window.to,
          limit: MAX_CANDIDATES,
        }),
        searchIndex.count(teamId),
      ]);
      const ranked = rankPages(
        query,
        candidates.filter((page) => page.url !== exclude),
        total,
      );
      const snippetWords = [...query.phrases.flat(), ...query.terms];
      const web: WebResult[] = ranked.slice(0, limit).map(({ page }, index) => ({
        url: page.url,
        title: page.title === '' ? page.url : page.title,
        description: page.description !== '' ? page.description : makeSnippet(page.text, snippetWords),
        position: index + 1,
      }));
      return web.length === 0 ? {} : { web };
    },
  };
}
