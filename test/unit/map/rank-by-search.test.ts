import { describe, expect, it } from 'vitest';
import { rankBySearch, searchTerms } from '../../../server/products/map/rank-by-search';

const urls = (links: Array<{ url: string }>) => links.map((link) => new URL(link.url).pathname);

describe('rankBySearch', () => {
  const links = [
    { url: 'https://site.test/' },
    { url: 'https://site.test/blog/release-notes' },
    { url: 'https://site.test/docs/api-reference' },
    { url: 'https://site.test/docs/api' },
    { url: 'https://site.test/pricing', title: 'Plans and pricing' },
    { url: 'https://site.test/docs/reference/cli' },
  ];

  it('puts the URL matching every search word first, partial matches next, the rest in their order', () => {
    expect(urls(rankBySearch(links, 'API reference'))).toEqual([
      '/docs/api-reference',
      '/docs/api',
      '/docs/reference/cli',
      '/',
      '/blog/release-notes',
      '/pricing',
    ]);
  });

  it('reads titles and descriptions, not only the URL', () => {
    const ranked = rankBySearch(
      [
        { url: 'https://site.test/p/1' },
        { url: 'https://site.test/p/2', description: 'How much it costs: pricing' },
      ],
      'pricing',
    );
    expect(urls(ranked)).toEqual(['/p/2', '/p/1']);
  });

  it('keeps the order when nothing matches, and folds plurals and case', () => {
    expect(urls(rankBySearch(links, 'zebra'))).toEqual(urls(links));
    expect(searchTerms('Blog POSTS and the Docs')).toEqual(['blog', 'post', 'doc']);
  });
});
