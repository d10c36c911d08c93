import { beforeEach, describe, expect, it } from 'vitest';
import { purgeExpired, type Stores } from '../../../server/platform/store/create-stores';
import { SEARCH_INDEX_RETENTION_MS } from '../../../server/platform/store/stores/search-index-store';
import {
  MAX_INDEXED_TEXT_CHARS,
  addPageToSearchIndex,
} from '../../../server/products/search/add-page-to-search-index';
import { createLocalIndexProvider } from '../../../server/products/search/local-index-provider';
import { parseQuery } from '../../../server/platform/text/parse-query';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';

const search = (stores: Stores, teamId: string, text: string, tbs?: string) =>
  createLocalIndexProvider({ searchIndex: stores.searchIndex })
    .search({
      text,
      parsed: parseQuery(text),
      sources: ['web'],
      limit: 10,
      teamId,
      lang: 'en',
      country: 'us',
      tbs,
      signal: new AbortController().signal,
    })
    .then((found) => (found.web ?? []).map((result) => result.url));

describe.each(DATABASE_BACKENDS)('$kind database: search index', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;

    beforeEach(async () => {
      stores = await freshStores(harness);
    });

    const add = (teamId: string, url: string, title: string, markdown: string, description?: string) =>
      addPageToSearchIndex(stores.searchIndex, { teamId, url, title, markdown, description });

    it("finds a team's pages by their words, and never another team's", async () => {
      await add(
        'team-a',
        'https://bees.test/queen',
        'The queen bee',
        'The queen lays every egg of the hive.',
      );
      await add('team-b', 'https://bees.test/secret', 'Queen secrets', 'Team b saw this queen page.');
      expect(await search(stores, 'team-a', 'queen')).toEqual(['https://bees.test/queen']);
      expect(await search(stores, 'team-b', 'queen')).toEqual(['https://bees.test/secret']);
      expect(await search(stores, 'team-c', 'queen')).toEqual([]);
    });

    it('replaces a page scraped again instead of listing it twice', async () => {
      await add('team', 'https://bees.test/page#top', 'Old title', 'wax');
      await add('team', 'https://bees.test/page', 'New title', 'propolis');
      expect(await stores.searchIndex.count('team')).toBe(1);
      expect(await search(stores, 'team', 'wax')).toEqual([]);
      expect(await search(stores, 'team', 'propolis')).toEqual(['https://bees.test/page']);
    });

    it('looks up site: through the stored domains, subdomains included', async () => {
      await add('team', 'https://docs.bees.test/hive', 'Hive docs', 'frames');
      await add('team', 'https://wasps.test/hive', 'Wasp hive', 'frames');
      expect(await search(stores, 'team', 'site:bees.test')).toEqual(['https://docs.bees.test/hive']);
      expect(await search(stores, 'team', 'frames -site:bees.test')).toEqual(['https://wasps.test/hive']);
    });

    it('answers related: with pages like the named one', async () => {
      await add('team', 'https://bees.test/varroa', 'Varroa mites in hives', 'Treat mites in autumn.');
      await add('team', 'https://bees.test/mites', 'Counting varroa mites', 'A sugar roll counts mites.');
      await add('team', 'https://bees.test/honey', 'Honey harvest', 'Harvest in summer.');
      expect(await search(stores, 'team', 'related:https://bees.test/varroa')).toEqual([
        'https://bees.test/mites',
      ]);
    });

    it('applies tbs to when each page was last indexed', async () => {
      const page = (url: string) => ({
        teamId: 'team',
        url,
        domains: ['bees.test', 'test'],
        title: 'Swarm report',
        description: '',
        text: 'swarm',
        terms: ['swarm'],
        length: 2,
        source: 'scrape' as const,
      });
      await stores.searchIndex.put(
        page('https://bees.test/old-swarm'),
        new Date(Date.now() - 10 * 86_400_000),
      );
      await stores.searchIndex.put(page('https://bees.test/new-swarm'));
      expect(await search(stores, 'team', 'swarm', 'qdr:w')).toEqual(['https://bees.test/new-swarm']);
      expect((await search(stores, 'team', 'swarm')).sort()).toEqual([
        'https://bees.test/new-swarm',
        'https://bees.test/old-swarm',
      ]);
    });

    it('keeps a bounded text per page', async () => {
      await add('team', 'https://bees.test/long', 'Long page', `start ${'filler '.repeat(10_000)} needle`);
      const page = await stores.searchIndex.get('team', 'https://bees.test/long');
      expect(page?.text.length).toBe(MAX_INDEXED_TEXT_CHARS);
      expect(await search(stores, 'team', 'needle')).toEqual([]);
      expect(await search(stores, 'team', 'start')).toEqual(['https://bees.test/long']);
    });

    it('purges pages past retention', async () => {
      const longAgo = new Date(Date.now() - SEARCH_INDEX_RETENTION_MS - 60_000);
      await stores.searchIndex.put(
        {
          teamId: 'team',
          url: 'https://bees.test/old',
          domains: ['bees.test', 'test'],
          title: 'Old',
          description: '',
          text: 'old',
          terms: ['old'],
          length: 1,
          source: 'scrape',
        },
        longAgo,
      );
      expect(await stores.searchIndex.count('team')).toBe(0);
      expect(await purgeExpired(stores)).toBeGreaterThanOrEqual(0);
      expect(await stores.searchIndex.get('team', 'https://bees.test/old')).toBeUndefined();
    });
  });
});
