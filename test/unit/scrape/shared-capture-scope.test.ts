import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import { silentLog } from '../../../server/platform/log/log';
import type { MapIndexRecorder, SeenPage } from '../../../server/products/map/create-map-index-recorder';
import { mayShareBrowserCapture } from '../../../server/scrape/capture/cache-policy';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createScraper } from '../../../server/scrape/create-scraper';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const embedded = useEmbeddedStores();

const page = (marker: string): PageCapture => {
  const html = `<html><head><title>${marker}</title></head><body><main><h1>${marker}</h1><p>Text of the page.</p></main></body></html>`;
  return {
    url: 'https://shop.example.com/',
    statusCode: 200,
    contentType: 'text/html',
    rawHtml: html,
    renderedHtml: html,
  };
};

/** A scraper whose browser answers with `made`, over real cache and result stores. */
function setup(made: (spec: { url: string }) => PageCapture) {
  const recorded: SeenPage[] = [];
  const mapIndex = {
    recordPage: async (seen: SeenPage) => void recorded.push(seen),
  } as unknown as MapIndexRecorder;
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log: silentLog }),
    results: embedded.stores.results,
    log: silentLog,
    mapIndex,
    runTask: async (spec) => ({ ...made(spec), url: spec.url }),
    urlPolicy: createUrlPolicy({ allowPrivateNetworks: false, lookup: async () => ['93.184.215.14'] }),
  });
  return { scraper, recorded };
}

let pages = 0;
const nextUrl = () => `https://shop.example.com/page-${(pages += 1)}`;
const scrape = (scraper: ReturnType<typeof setup>['scraper'], url: string, teamId: string, extra = {}) =>
  scraper.scrape(ScrapeRequestV2.parse({ url, formats: ['markdown'], ...extra }), {
    teamId,
    admission: 'api',
  });

describe("captures shaped by a team stay that team's", () => {
  it.each([
    ['a pool browser that could not vouch for its state', {}],
    ['a pool browser whose state the team had touched', { stateClean: false }],
    ["the team's own browser node", { teamNode: true, stateClean: true }],
    ["the team's donated browser", { donated: true, stateClean: true }],
  ])('caches and indexes what %s made for the team only', async (_, made) => {
    const { scraper, recorded } = setup(() => ({ ...page('TEAM-A-SHAPED'), ...made }));
    const url = nextUrl();
    // A waits for the page (no cache read), as in the report; it is stored all the same.
    const first = await scrape(scraper, url, 'team-a', { waitFor: 100 });
    expect(first.markdown).toContain('TEAM-A-SHAPED');
    expect(recorded.at(-1)).toMatchObject({ teamId: 'team-a', shared: false });
    expect((await scrape(scraper, url, 'team-a')).metadata.cacheState).toBe('hit');

    const other = setup(() => page('FRESH-FOR-B'));
    const forB = await scrape(other.scraper, url, 'team-b');
    expect(forB.metadata.cacheState).toBe('miss');
    expect(forB.markdown).toContain('FRESH-FOR-B');
    expect(forB.markdown).not.toContain('TEAM-A-SHAPED');
  });

  it('shares what a pool browser made in state nothing of the team had shaped', async () => {
    const { scraper, recorded } = setup(() => ({ ...page('ANYONE'), stateClean: true }));
    const url = nextUrl();
    await scrape(scraper, url, 'team-a', { waitFor: 100 });
    expect(recorded.at(-1)).toMatchObject({ shared: true });
    const other = setup(() => page('NOT-ASKED'));
    const forB = await scrape(other.scraper, url, 'team-b');
    expect(forB.metadata.cacheState).toBe('hit');
    expect(forB.markdown).toContain('ANYONE');
  });

  it('decides from the request as well: headers, actions and profiles are never shared', () => {
    const clean = { ...page('x'), stateClean: true };
    const request = (extra: Record<string, unknown>) =>
      ScrapeRequestV2.parse({ url: 'https://shop.example.com/', ...extra });
    expect(mayShareBrowserCapture(request({}), clean)).toBe(true);
    expect(mayShareBrowserCapture(request({ headers: { cookie: 'a=b' } }), clean)).toBe(false);
    expect(mayShareBrowserCapture(request({ actions: [{ type: 'wait', milliseconds: 1 }] }), clean)).toBe(
      false,
    );
    expect(mayShareBrowserCapture(request({ profile: { name: 'shop' } }), clean)).toBe(false);
  });
});
