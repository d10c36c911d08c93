import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { createMapFilter, type MapFilterOptions } from '../../../server/products/map/map-filter';
import { normalizeMapUrl } from '../../../server/products/map/normalize-map-url';
import { parseRobotsTxt } from '../../../server/products/jobs/robots-txt';

const filter = (options: Partial<MapFilterOptions> = {}) => {
  const keep = createMapFilter({
    start: new URL('https://www.site.test/'),
    includeSubdomains: true,
    filterByPath: true,
    include: [],
    exclude: [],
    regexOnFullURL: false,
    robots: undefined,
    ...options,
  });
  return (url: string) => keep(new URL(url));
};

describe('the map filter', () => {
  it('keeps the registrable domain, with or without subdomains', () => {
    const keep = filter();
    expect(keep('https://site.test/a')).toBe(true);
    expect(keep('https://docs.site.test/a')).toBe(true);
    expect(keep('https://othersite.test/a')).toBe(false);
    expect(keep('https://site.test.evil.example/a')).toBe(false);
    const exact = filter({ includeSubdomains: false });
    expect(exact('https://site.test/a')).toBe(true);
    expect(exact('https://docs.site.test/a')).toBe(false);
  });

  it('keeps the start path as a prefix, drops files, applies patterns and robots.txt', () => {
    const docs = filter({ start: new URL('https://site.test/docs/') });
    expect(docs('https://site.test/docs')).toBe(true);
    expect(docs('https://site.test/docs/x')).toBe(true);
    expect(docs('https://site.test/blog/x')).toBe(false);
    expect(
      filter({ start: new URL('https://site.test/docs/'), filterByPath: false })('https://site.test/blog'),
    ).toBe(true);
    expect(filter()('https://site.test/logo.png')).toBe(false);
    const patterns = filter({ include: [RE2JS.compile('^/blog')], exclude: [RE2JS.compile('draft')] });
    expect(patterns('https://site.test/blog/post')).toBe(true);
    expect(patterns('https://site.test/blog/draft-1')).toBe(false);
    expect(patterns('https://site.test/about')).toBe(false);
    const robots = filter({
      start: new URL('https://site.test/'),
      robots: parseRobotsTxt('User-agent: *\nDisallow: /private/'),
    });
    expect(robots('https://site.test/private/x')).toBe(false);
    expect(robots('https://site.test/public/x')).toBe(true);
  });
});

describe('normalizeMapUrl', () => {
  it('drops fragments, trailing slashes and (when asked) queries', () => {
    const href = (raw: string, ignoreQueryParameters = true) =>
      normalizeMapUrl(raw, { ignoreQueryParameters })?.href;
    expect(href('https://site.test/docs/#intro')).toBe('https://site.test/docs');
    expect(href('https://site.test/')).toBe('https://site.test/');
    expect(href('https://site.test/a?b=1')).toBe('https://site.test/a');
    expect(href('https://site.test/a?b=1', false)).toBe('https://site.test/a?b=1');
    expect(href('mailto:x@site.test')).toBeUndefined();
    expect(href('not a url')).toBeUndefined();
  });
});
