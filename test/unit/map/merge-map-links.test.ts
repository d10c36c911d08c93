import { describe, expect, it } from 'vitest';
import { inputUrlFirst } from '../../../server/products/map/input-url-first';
import { mergeMapLinks } from '../../../server/products/map/merge-map-links';
import { listedMapUrl } from '../../../server/products/map/normalize-map-url';

const options = { ignoreQueryParameters: true };
const everything = () => true;

describe('listedMapUrl', () => {
  it('keeps the URL as the site wrote it, less its fragment (and query when asked)', () => {
    const listed = (raw: string, ignoreQueryParameters = true) =>
      listedMapUrl(raw, { ignoreQueryParameters })?.href;
    expect(listed('https://site.test/docs/#intro')).toBe('https://site.test/docs/');
    expect(listed('https://site.test/docs')).toBe('https://site.test/docs');
    expect(listed('https://site.test/a/?b=1')).toBe('https://site.test/a/');
    expect(listed('https://site.test/a/?b=1', false)).toBe('https://site.test/a/?b=1');
    expect(listed('mailto:x@site.test')).toBeUndefined();
  });
});

describe('mergeMapLinks', () => {
  it('lists a page in the form its first mention wrote, once, with what any mention knew', () => {
    const links = mergeMapLinks(
      [
        { url: 'https://site.test/' },
        { url: 'https://site.test/docs/' },
        { url: 'https://site.test/docs', title: 'Docs' },
        { url: 'https://site.test/about', description: 'Who we are' },
        { url: 'https://site.test/about/#team', title: 'About' },
      ],
      options,
      everything,
    );
    expect(links).toEqual([
      { url: 'https://site.test/' },
      { url: 'https://site.test/docs/', title: 'Docs' },
      { url: 'https://site.test/about', title: 'About', description: 'Who we are' },
    ]);
  });

  it('filters on the form without the trailing slash, as before', () => {
    const seen: string[] = [];
    const links = mergeMapLinks(
      [{ url: 'https://site.test/docs/' }, { url: 'https://site.test/x/' }],
      options,
      (url) => {
        seen.push(url.href);
        return url.pathname !== '/x';
      },
    );
    expect(seen).toEqual(['https://site.test/docs', 'https://site.test/x']);
    expect(links).toEqual([{ url: 'https://site.test/docs/' }]);
  });
});

describe('inputUrlFirst (v1 map)', () => {
  it('puts the input URL first as written and drops the same page from the links', () => {
    const links = ['https://site.test/docs', 'https://site.test/docs/a.html', 'https://site.test/about'];
    expect(inputUrlFirst('https://site.test/docs/#top', links, { ...options, limit: 3 })).toEqual([
      'https://site.test/docs/',
      'https://site.test/docs/a.html',
      'https://site.test/about',
    ]);
    expect(inputUrlFirst('https://site.test/', links, { ...options, limit: 2 })).toEqual([
      'https://site.test/',
      'https://site.test/docs',
    ]);
  });
});
