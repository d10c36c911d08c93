import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import { silentLog } from '../../../server/platform/log/log';
import type { MapIndexRecorder } from '../../../server/products/map/create-map-index-recorder';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createScraper } from '../../../server/scrape/create-scraper';
import { LOADING_PLACEHOLDER_WARNING } from '../../../server/scrape/capture/loading-placeholder';
import type { SearchIndexStore } from '../../../server/platform/store/stores/search-index-store';
import { searchIndexSink } from '../../../server/products/search/search-index-sink';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { derivePage } from '../../../server/scrape/derive/derive-page';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const embedded = useEmbeddedStores();

const article: PageCapture = {
  url: 'https://docs.example.com/guide',
  statusCode: 200,
  contentType: 'text/html',
  rawHtml:
    '<html lang="en"><head><title>Guide</title></head><body><main><h1>Guide</h1><p>How to <a href="/a">start</a>.</p></main></body></html>',
  renderedHtml:
    '<html lang="en"><head><title>Guide</title></head><body><main><h1>Guide</h1><p>How to <a href="/a">start</a>.</p></main></body></html>',
};
const spinner: PageCapture = {
  ...article,
  rawHtml:
    '<html><head><title>App</title></head><body><div id="root"></div><script src="/a.js"></script></body></html>',
  renderedHtml:
    '<html><head><title>App</title></head><body><div id="root"><div class="spinner"></div></div></body></html>',
};

function setup(capture: PageCapture = article) {
  const counts = { tasks: 0, derive: 0, search: 0, map: 0 };
  const searchIndex = searchIndexSink({
    ...embedded.stores.searchIndex,
    put: async (...args: Parameters<SearchIndexStore['put']>) => {
      counts.search += 1;
      return embedded.stores.searchIndex.put(...args);
    },
  });
  const mapIndex = {
    recordPage: async () => {
      counts.map += 1;
    },
  } as unknown as MapIndexRecorder;
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log: silentLog }),
    results: embedded.stores.results,
    log: silentLog,
    searchIndex,
    mapIndex,
    derive: async (...args) => {
      counts.derive += 1;
      return derivePage(...args);
    },
    runTask: async () => {
      counts.tasks += 1;
      return capture;
    },
    urlPolicy: createUrlPolicy({ allowPrivateNetworks: false, lookup: async () => ['93.184.215.14'] }),
  });
  return { scraper, counts };
}

let pages = 0;
const nextUrl = () => `https://docs.example.com/guide-${(pages += 1)}`;
const scrape = (
  scraper: ReturnType<typeof setup>['scraper'],
  body: Record<string, unknown>,
  teamId = 'team-a',
) => scraper.scrape(ScrapeRequestV2.parse(body), { teamId, admission: 'api' });

describe('cache hits of the scrape pipeline', () => {
  it('derive a hot entry once per formats, and answer each hit as a document of its own', async () => {
    const { scraper, counts } = setup();
    const url = nextUrl();
    const first = await scrape(scraper, { url });
    const hits = [await scrape(scraper, { url }), await scrape(scraper, { url })];
    expect(hits.map((hit) => hit.metadata.cacheState)).toEqual(['hit', 'hit']);
    expect(hits.map((hit) => hit.markdown)).toEqual([first.markdown, first.markdown]);
    expect(new Set([first, ...hits].map((document) => document.metadata.scrapeId)).size).toBe(3);
    expect(counts.tasks).toBe(1);
    // The browser's capture was derived once, when it came, for every later hit too.
    expect(counts.derive).toBe(1);
    const links = await scrape(scraper, { url, formats: ['markdown', 'links'] });
    await scrape(scraper, { url, formats: ['links', 'markdown'] });
    expect(links.links).toEqual(['https://docs.example.com/a']);
    expect(counts.derive).toBe(2);
    for (const hit of hits) {
      const stored = await embedded.stores.results.get(hit.metadata.scrapeId);
      expect(stored?.document).toEqual(hit);
    }
  });

  it('write the indexes once per team and capture, not once per hit', async () => {
    const { scraper, counts } = setup();
    const url = nextUrl();
    for (let n = 0; n < 3; n += 1) await scrape(scraper, { url });
    expect([counts.search, counts.map]).toEqual([1, 1]);
    await scrape(scraper, { url }, 'team-b');
    expect([counts.search, counts.map]).toEqual([2, 2]);
    // Another way of deriving the page is another document for the indexes.
    await scrape(scraper, { url, onlyMainContent: false });
    expect([counts.search, counts.map]).toEqual([3, 3]);
  });

  it('warn about a loading placeholder and do not cache it', async () => {
    const { scraper, counts } = setup(spinner);
    const url = nextUrl();
    const first = await scrape(scraper, { url });
    expect(first.warning).toBe(LOADING_PLACEHOLDER_WARNING);
    const second = await scrape(scraper, { url });
    expect(second.metadata.cacheState).toBe('miss');
    expect(second.warning).toBe(LOADING_PLACEHOLDER_WARNING);
    expect(counts.tasks).toBe(2);
  });

  it('say nothing about an ordinary short page', async () => {
    const { scraper } = setup();
    expect((await scrape(scraper, { url: nextUrl() })).warning).toBeUndefined();
  });
});
