import { describe, expect, it } from 'vitest';
import { createUrlScope } from '../../../server/products/agent/url-scope';

describe('createUrlScope', () => {
  const scope = createUrlScope(['https://shop.example/docs', 'https://other.example/'], true);

  it('allows each URL and the pages below it, whatever the query or www.', () => {
    expect(scope.allows('https://shop.example/docs')).toBe(true);
    expect(scope.allows('https://shop.example/docs/')).toBe(true);
    expect(scope.allows('https://shop.example/docs/intro?x=1#top')).toBe(true);
    expect(scope.allows('https://www.shop.example/docs/intro')).toBe(true);
    expect(scope.allows('https://other.example/anything/at/all')).toBe(true);
  });

  it('refuses siblings that share a prefix, other sites, other schemes and junk', () => {
    expect(scope.allows('https://shop.example/docsearch')).toBe(false);
    expect(scope.allows('https://shop.example/')).toBe(false);
    expect(scope.allows('http://shop.example/docs')).toBe(false);
    expect(scope.allows('https://evil.example/docs')).toBe(false);
    expect(scope.allows('https://shop.example.evil.example/docs')).toBe(false);
    expect(scope.allows('not a url')).toBe(false);
  });

  it('allows everything when not strict', () => {
    expect(createUrlScope(['https://shop.example/docs'], false).allows('https://evil.example/')).toBe(true);
  });
});
