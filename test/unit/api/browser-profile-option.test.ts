import { describe, expect, it } from 'vitest';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';

const url = 'https://site.test/';

describe('the v2 scrape option `profile`', () => {
  it('defaults saveChanges to true, as Firecrawl’s clients do', () => {
    expect(ScrapeRequestV2.parse({ url, profile: { name: 'work' } }).profile).toEqual({
      name: 'work',
      saveChanges: true,
    });
    expect(ScrapeRequestV2.parse({ url, profile: { name: 'w', saveChanges: false } }).profile).toEqual({
      name: 'w',
      saveChanges: false,
    });
  });

  it('is absent unless asked for, and allowed in nested scrape options (crawl, search)', () => {
    expect(ScrapeRequestV2.parse({ url })).not.toHaveProperty('profile');
    expect(ScrapeOptionsV2.parse({ profile: { name: 'a.b_c-1' } }).profile?.name).toBe('a.b_c-1');
  });

  it.each([
    ['an empty name', ''],
    ['a path', '../team-b/p'],
    ['a slash', 'a/b'],
    ['a leading dot', '.hidden'],
    ['a space', 'my profile'],
    ['a long name', 'x'.repeat(65)],
  ])('refuses %s', (_what, name) => {
    expect(ScrapeRequestV2.safeParse({ url, profile: { name } }).success).toBe(false);
  });

  it('refuses a profile without a name, or of another type', () => {
    expect(ScrapeRequestV2.safeParse({ url, profile: {} }).success).toBe(false);
    expect(ScrapeRequestV2.safeParse({ url, profile: 'work' }).success).toBe(false);
    expect(ScrapeRequestV2.safeParse({ url, profile: { name: 'w', saveChanges: 'yes' } }).success).toBe(
      false,
    );
  });
});
