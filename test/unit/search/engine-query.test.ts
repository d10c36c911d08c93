import { describe, expect, it } from 'vitest';
import { categoryOf, engineQuery } from '../../../server/products/search/engine-query';
import { filterResults, isScrapableUrl } from '../../../server/products/search/filter-results';
import { parseQuery } from '../../../server/platform/text/parse-query';
import { timeWindow } from '../../../server/products/search/time-filter';

describe('engineQuery', () => {
  it('appends categories and domain filters as operators', () => {
    expect(engineQuery({ query: 'llm ', categories: ['github'] })).toBe('llm site:github.com');
    expect(
      engineQuery({ query: 'x', categories: ['pdf'], excludeDomains: ['https://www.Spam.example/'] }),
    ).toBe('x -site:spam.example filetype:pdf');
    const research = engineQuery({ query: 'bees', categories: ['research'], includeDomains: ['bees.org'] });
    expect(research).toMatch(/^bees \(site:bees\.org OR site:arxiv\.org OR .* OR site:acm\.org\)$/);
    expect(parseQuery(research).sites).toContain('pubmed.ncbi.nlm.nih.gov');
  });

  it('tags results with the category they belong to', () => {
    expect(categoryOf('https://github.com/a/b', ['github', 'research'])).toBe('github');
    expect(categoryOf('https://www.arxiv.org/abs/1', ['github', 'research'])).toBe('research');
    expect(categoryOf('https://files.example/paper.PDF', ['pdf'])).toBe('pdf');
    expect(categoryOf('https://example.com/', ['github'])).toBeUndefined();
  });
});

describe('filterResults', () => {
  const options = {
    sources: ['web', 'images'],
    limit: 2,
    query: parseQuery('bees larger:1000x700'),
    categories: [],
    ignoreInvalidURLs: true,
    allowPrivateNetworks: false,
  };

  it('keeps the asked sources, cuts to the limit, numbers, and drops URLs that cannot be scraped', () => {
    const { results, removedInvalid } = filterResults(
      {
        web: [
          { url: 'http://10.0.0.1/admin', title: 'Router', description: '' },
          { url: 'https://a.example/', title: 'A', description: '' },
          { url: 'ftp://b.example/', title: 'B', description: '' },
          { url: 'https://c.example/', title: 'C', description: '' },
          { url: 'https://d.example/', title: 'D', description: '' },
        ],
        news: [{ title: 'Not asked for', url: 'https://n.example/' }],
        images: [
          { imageUrl: 'https://i.example/small.jpg', imageWidth: 640, imageHeight: 480 },
          { imageUrl: 'https://i.example/big.jpg', imageWidth: 1600, imageHeight: 1200 },
          { imageUrl: 'https://i.example/unknown.jpg' },
        ],
      },
      options,
    );
    expect(results.web).toEqual([
      { url: 'https://a.example/', title: 'A', description: '', position: 1 },
      { url: 'https://c.example/', title: 'C', description: '', position: 2 },
    ]);
    expect(removedInvalid).toBe(2);
    expect(results).not.toHaveProperty('news');
    expect(results.images?.map((image) => image.imageUrl)).toEqual([
      'https://i.example/big.jpg',
      'https://i.example/unknown.jpg',
    ]);
  });

  it('leaves out sources that found nothing', () => {
    expect(filterResults({ web: [] }, options).results).toEqual({});
  });

  it('judges URLs without asking DNS', () => {
    expect(isScrapableUrl('https://example.com/', false)).toBe(true);
    expect(isScrapableUrl('http://127.0.0.1:8080/', false)).toBe(false);
    expect(isScrapableUrl('http://127.0.0.1:8080/', true)).toBe(true);
    expect(isScrapableUrl('http://169.254.169.254/', true)).toBe(false);
    expect(isScrapableUrl('not a url', true)).toBe(false);
  });
});

describe('timeWindow', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('reads qdr periods, with counts', () => {
    expect(timeWindow('qdr:d', now)).toEqual({ from: new Date('2026-11-20T12:00:00Z') });
    expect(timeWindow('qdr:h2', now)).toEqual({ from: new Date('2026-11-21T10:00:00Z') });
  });

  it('reads custom date ranges', () => {
    expect(timeWindow('cdr:1,cd_min:11/1/2026,cd_max:11/15/2026', now)).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-15T23:59:59.999Z'),
    });
  });

  it('ignores what it does not know', () => {
    expect(timeWindow(undefined, now)).toEqual({});
    expect(timeWindow('sbd:1', now)).toEqual({});
  });
});
