import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { Scraper } from '../../scrape/types';
import { bing } from './engines/bing';
import { duckDuckGo } from './engines/duckduckgo';
import { google } from './engines/google';
import { onBase, type SearchEngine } from './engines/search-engine';
import type { SearchProvider, SearchQuery, SearchSource } from './search-provider';

export const SEARCH_ENGINES: Record<SearchEngine['name'], SearchEngine> = {
  duckduckgo: duckDuckGo,
  bing,
  google,
};

/** One result page may take this long to open in the browser. */
const RESULT_PAGE_TIMEOUT_MS = 30_000;

/**
 * Search through an engine's own result pages, opened by the browser pool like any scrape (so the
 * URL policy, browser selection and proxy rules apply) and read by the engine's parser. Result
 * pages are neither cached nor added to the search or map index. `baseUrl` (SEARCH_ENGINE_URL) sends the
 * browser to another origin serving the engine's pages.
 */
export function createBrowserSearchProvider({
  scraper,
  engine,
  baseUrl,
}: {
  scraper: Scraper;
  engine: SearchEngine;
  baseUrl?: string | undefined;
}): SearchProvider {
  async function resultPage(
    query: SearchQuery,
    source: SearchSource,
  ): Promise<{ html: string; url: string }> {
    const url = onBase(engine.resultPageUrl(query, source), baseUrl);
    const wait = engine.renderWaitMs(source);
    const document = await scraper.scrape(
      ScrapeRequestV2.parse({
        url: url.href,
        formats: ['rawHtml'],
        onlyMainContent: false,
        maxAge: 0,
        storeInCache: false,
        proxy: 'basic',
        timeout: RESULT_PAGE_TIMEOUT_MS,
        ...(wait > 0 ? { waitFor: wait } : {}),
      }),
      {
        teamId: query.teamId,
        admission: 'product-request',
        keepResult: false,
        indexPage: false,
        browserOnly: true,
      },
    );
    if (document.metadata.statusCode >= 400) {
      throw new Error(`${engine.name} answered HTTP ${document.metadata.statusCode} for ${source} results`);
    }
    return { html: document.rawHtml ?? '', url: document.metadata.url };
  }

  return {
    name: 'browser',
    async search(query) {
      const [web, news, images] = await Promise.all([
        query.sources.includes('web')
          ? resultPage(query, 'web').then(({ html, url }) => engine.parseWeb(html, url))
          : undefined,
        query.sources.includes('news')
          ? resultPage(query, 'news').then(({ html, url }) => engine.parseNews(html, url))
          : undefined,
        query.sources.includes('images')
          ? resultPage(query, 'images').then(({ html, url }) => engine.parseImages(html, url))
          : undefined,
      ]);
      return {
        ...(web === undefined ? {} : { web }),
        ...(news === undefined ? {} : { news }),
        ...(images === undefined ? {} : { images }),
      };
    },
  };
}
