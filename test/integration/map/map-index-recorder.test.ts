import { describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/log';
import { createMapIndexRecorder } from '../../../server/map/create-map-index-recorder';
import { PUBLIC_SCOPE } from '../../../server/store/stores/cache-store';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const env = useEmbeddedStores();

describe('the map index recorder', () => {
  it('records a page with its title and its same-domain links, per scope', async () => {
    const recorder = createMapIndexRecorder({ mapIndex: env.stores.mapIndex, log: silentLog });
    await recorder.recordPage({
      url: 'https://www.site.test/docs/a#top',
      title: 'A',
      description: 'About A',
      links: [
        'https://site.test/docs/b',
        'https://blog.site.test/post',
        'https://other.test/x',
        'mailto:x@site.test',
      ],
      scope: 'team-a',
    });
    await recorder.recordSitemapUrls('https://site.test/', ['https://site.test/from-sitemap'], PUBLIC_SCOPE);
    await recorder.idle();

    const publicOnly = await env.stores.mapIndex.listDomain({
      domain: 'site.test',
      scopes: [PUBLIC_SCOPE],
      limit: 10,
    });
    expect(publicOnly.map((entry) => [entry.url, entry.inSitemap, entry.onPage])).toEqual([
      ['https://site.test/from-sitemap', true, undefined],
    ]);
    const teamA = await env.stores.mapIndex.listDomain({
      domain: 'site.test',
      scopes: [PUBLIC_SCOPE, 'team-a'],
      limit: 10,
    });
    expect(teamA.map((entry) => [entry.url, entry.site, entry.title ?? null])).toEqual([
      ['https://blog.site.test/post', 'blog.site.test', null],
      ['https://site.test/docs/b', 'site.test', null],
      ['https://site.test/from-sitemap', 'site.test', null],
      ['https://www.site.test/docs/a', 'site.test', 'A'],
    ]);
    expect(
      await env.stores.mapIndex.listDomain({ domain: 'other.test', scopes: ['team-a'], limit: 10 }),
    ).toEqual([]);
  });

  it('writes a link that every page of a crawl shows once, and a page’s title every time', async () => {
    let written: string[] = [];
    const recorder = createMapIndexRecorder({
      mapIndex: {
        ...env.stores.mapIndex,
        record: async (seen) => {
          written.push(
            ...seen.map((entry) => `${entry.url}${entry.title === undefined ? '' : ` "${entry.title}"`}`),
          );
          await env.stores.mapIndex.record(seen);
        },
      },
      log: silentLog,
    });
    const nav = ['https://nav.test/', 'https://nav.test/about'];
    for (const page of ['a', 'b']) {
      void recorder.recordPage({ url: `https://nav.test/${page}`, title: page, scope: PUBLIC_SCOPE });
      await recorder.recordPage({ url: `https://nav.test/${page}`, links: nav, scope: PUBLIC_SCOPE });
    }
    expect(written).toEqual([
      'https://nav.test/a "a"',
      'https://nav.test/',
      'https://nav.test/about',
      'https://nav.test/b "b"',
    ]);
    // In another scope the same links are news.
    written = [];
    await recorder.recordPage({ url: 'https://nav.test/c', links: nav, scope: 'team-a' });
    expect(written).toEqual(['https://nav.test/c', 'https://nav.test/', 'https://nav.test/about']);
    const listed = await env.stores.mapIndex.listDomain({
      domain: 'nav.test',
      scopes: [PUBLIC_SCOPE],
      limit: 10,
    });
    expect(listed.map((entry) => [entry.url, entry.title ?? null])).toEqual([
      ['https://nav.test/', null],
      ['https://nav.test/a', 'a'],
      ['https://nav.test/about', null],
      ['https://nav.test/b', 'b'],
    ]);
  });
});
