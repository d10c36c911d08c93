import { describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import { createMapIndexRecorder } from '../../../server/products/map/create-map-index-recorder';
import { PUBLIC_SCOPE } from '../../../server/platform/store/stores/cache-store';
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
      teamId: 'team-a',
      shared: false,
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
      void recorder.recordPage({
        url: `https://nav.test/${page}`,
        title: page,
        teamId: 'team-a',
        shared: true,
      });
      await recorder.recordPage({
        url: `https://nav.test/${page}`,
        links: nav,
        teamId: 'team-a',
        shared: true,
      });
    }
    expect(written).toEqual([
      'https://nav.test/a "a"',
      'https://nav.test/',
      'https://nav.test/about',
      'https://nav.test/b "b"',
    ]);
    // In another scope the same links are news.
    written = [];
    await recorder.recordPage({ url: 'https://nav.test/c', links: nav, teamId: 'team-a', shared: false });
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
  it('shares a page with other teams only without queries, and one reached through a query as its bare path', async () => {
    const recorder = createMapIndexRecorder({ mapIndex: env.stores.mapIndex, log: silentLog });
    const list = async (scopes: string[]) =>
      (await env.stores.mapIndex.listDomain({ domain: 'bank.test', scopes, limit: 50 })).map((entry) => [
        entry.url,
        entry.scope,
        entry.title ?? null,
      ]);
    await recorder.recordPage({
      url: 'https://bank.test/account/reset?token=SECRET-1#step-2',
      title: 'Reset the password of alice@example.com',
      description: 'Choose a new password',
      links: ['https://bank.test/account/confirm?token=SECRET-2', 'https://bank.test/help'],
      teamId: 'team-a',
      shared: true,
    });
    await recorder.recordPage({
      url: 'https://bank.test/docs',
      title: 'Docs',
      links: ['https://bank.test/docs/a?sig=SECRET-3', 'https://user:SECRET-4@bank.test/docs/b'],
      teamId: 'team-a',
      shared: true,
    });
    // Shaped by the team's headers, actions or logged-in browser: the team's alone.
    await recorder.recordPage({
      url: 'https://bank.test/inbox',
      title: 'Inbox of alice',
      links: ['https://bank.test/inbox/message-1'],
      teamId: 'team-a',
      shared: false,
    });
    await recorder.idle();

    const everyone = await list([PUBLIC_SCOPE, 'team-b']);
    expect(everyone).toEqual([
      ['https://bank.test/account/reset', PUBLIC_SCOPE, null],
      ['https://bank.test/docs', PUBLIC_SCOPE, 'Docs'],
      ['https://bank.test/docs/a', PUBLIC_SCOPE, null],
      ['https://bank.test/docs/b', PUBLIC_SCOPE, null],
    ]);
    expect(
      JSON.stringify(
        await env.stores.mapIndex.listDomain({ domain: 'bank.test', scopes: [PUBLIC_SCOPE], limit: 50 }),
      ),
    ).not.toMatch(/SECRET|alice|inbox|confirm|help|password/i);
    // The team that saw them keeps them as seen.
    expect(await list(['team-a'])).toEqual([
      ['https://bank.test/account/confirm?token=SECRET-2', 'team-a', null],
      ['https://bank.test/account/reset?token=SECRET-1', 'team-a', 'Reset the password of alice@example.com'],
      ['https://bank.test/docs/a?sig=SECRET-3', 'team-a', null],
      ['https://bank.test/help', 'team-a', null],
      ['https://bank.test/inbox', 'team-a', 'Inbox of alice'],
      ['https://bank.test/inbox/message-1', 'team-a', null],
    ]);
  });

  it("keeps secret-looking paths in the team's own scope, out of the public one", async () => {
    const recorder = createMapIndexRecorder({ mapIndex: env.stores.mapIndex, log: silentLog });
    const token = 'Zx81QpLm0sTr4uVw';
    await recorder.recordPage({
      url: 'https://caps.test/team',
      title: 'Team',
      links: ['https://caps.test/invite/xK9mQ2', 'https://caps.test/about'],
      teamId: 'team-a',
      shared: true,
    });
    await recorder.recordPage({
      url: `https://caps.test/share/${token}/doc`,
      title: 'Shared doc',
      links: ['https://caps.test/pricing'],
      teamId: 'team-a',
      shared: true,
    });
    await recorder.recordSitemapUrls(
      'https://caps.test/',
      ['https://caps.test/blog/my-first-post', `https://caps.test/d/${token}`],
      PUBLIC_SCOPE,
    );
    await recorder.idle();
    const urls = async (scopes: string[]) =>
      (await env.stores.mapIndex.listDomain({ domain: 'caps.test', scopes, limit: 20 })).map(
        (entry) => entry.url,
      );
    expect(await urls([PUBLIC_SCOPE])).toEqual([
      'https://caps.test/about',
      'https://caps.test/blog/my-first-post',
      'https://caps.test/team',
    ]);
    expect(await urls(['team-a'])).toEqual([
      'https://caps.test/invite/xK9mQ2',
      'https://caps.test/pricing',
      `https://caps.test/share/${token}/doc`,
    ]);
  });
});
