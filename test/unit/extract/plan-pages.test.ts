import { describe, expect, it } from 'vitest';
import type { ExtractSpec } from '../../../server/products/extract/extract-spec';
import { planPages } from '../../../server/products/extract/plan-pages';
import type { Mapper } from '../../../server/products/map/create-mapper';
import type { MapOptions } from '../../../server/products/map/map-options';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';

/** A site map as the mapper answers it: the site's pages under the asked path, without trailing slashes. */
function siteMap(pages: (url: string) => string[]) {
  const asked: MapOptions[] = [];
  const mapper = {
    async map(options: MapOptions) {
      asked.push(options);
      return pages(options.url).map((url) => ({ url }));
    },
  } as Mapper;
  return { mapper, asked };
}

const spec = (targets: ExtractSpec['targets']): ExtractSpec => ({
  version: 'v2',
  targets,
  enableWebSearch: false,
  includeSubdomains: false,
  showSources: false,
  scrapeOptions: ScrapeOptionsV2.parse({}),
  warnings: [],
});

const plan = (targets: ExtractSpec['targets'], mapper: Mapper) =>
  planPages(spec(targets), {
    teamId: 't',
    mapper,
    deadline: Date.now() + 60_000,
    signal: new AbortController().signal,
  });

const items = (base: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${base}/item-${i + 1}`);

describe('the pages an extract reads', () => {
  it('expands a wildcard to its start page and the map’s pages, once each, up to 25', async () => {
    const { mapper, asked } = siteMap(() => ['https://a.test/docs', ...items('https://a.test/docs', 30)]);
    const planned = await plan([{ url: 'https://a.test/docs/', wildcard: true }], mapper);
    expect(planned.urls).toEqual(['https://a.test/docs/', ...items('https://a.test/docs', 24)]);
    expect(planned.credits).toBe(1);
    expect(planned.warnings).toEqual([
      'https://a.test/docs/* covers 31 pages; the first 25 were read (at most 25 per wildcard URL).',
    ]);
    expect(asked[0]).toMatchObject({
      url: 'https://a.test/docs/',
      filterByPath: true,
      includeSubdomains: false,
    });
  });

  it('keeps the request’s order, reads a page once, and stops at 50 pages in all', async () => {
    const { mapper, asked } = siteMap((url) => items(url.replace(/\/$/, ''), 40));
    const planned = await plan(
      [
        { url: 'https://a.test/first', wildcard: false },
        { url: 'https://a.test/x/', wildcard: true },
        { url: 'https://a.test/x/item-3', wildcard: false },
        { url: 'https://a.test/y/', wildcard: true },
        { url: 'https://a.test/z/', wildcard: true },
        { url: 'https://a.test/last', wildcard: false },
      ],
      mapper,
    );
    expect(planned.urls).toHaveLength(50);
    expect(planned.urls.slice(0, 3)).toEqual([
      'https://a.test/first',
      'https://a.test/x/',
      'https://a.test/x/item-1',
    ]);
    expect(planned.urls.filter((url) => url === 'https://a.test/x/item-3')).toHaveLength(1);
    expect(planned.urls[26]).toBe('https://a.test/y/');
    // The third wildcard is not mapped once the cap is reached; its map would only cost a credit.
    expect(asked.map((options) => options.url)).toEqual(['https://a.test/x/', 'https://a.test/y/']);
    expect(planned.credits).toBe(2);
    expect(planned.warnings).toEqual([
      'https://a.test/x/* covers 41 pages; the first 25 were read (at most 25 per wildcard URL).',
      'https://a.test/y/* covers 41 pages; the first 24 were read (at most 25 per wildcard URL).',
      'These wildcard URLs were not read, the page cap or the time limit was reached first: https://a.test/z/*.',
      // The 25th page of y/, and https://a.test/last.
      '2 more page(s) were left out: an extract reads at most 50 pages.',
    ]);
  });

  it('reads a wildcard’s start page alone when its map fails, and says so', async () => {
    const mapper = {
      map: async () => {
        throw new Error('Map timed out');
      },
    } as unknown as Mapper;
    const planned = await plan([{ url: 'https://a.test/', wildcard: true }], mapper);
    expect(planned.urls).toEqual(['https://a.test/']);
    expect(planned.credits).toBe(0);
    expect(planned.warnings).toEqual([
      'The site map of https://a.test/* failed (Map timed out); its start page alone was read.',
    ]);
  });
});
