import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEARCH_ENGINES } from '../../../server/products/search/browser-search-provider';
import { parseQuery } from '../../../server/platform/text/parse-query';
import type { SearchQuery } from '../../../server/products/search/search-provider';

const page = (engine: string, source: string) =>
  readFileSync(new URL(`../../fixtures/serp/${engine}/${source}.html`, import.meta.url), 'utf8');

const WIKIPEDIA = 'https://en.wikipedia.org/wiki/Honey_bee';
const COMMONS_IMAGE =
  'https://upload.wikimedia.org/wikipedia/commons/4/4d/Apis_mellifera_Western_honey_bee.jpg';

describe('DuckDuckGo result pages', () => {
  const engine = SEARCH_ENGINES.duckduckgo;
  const base = 'https://html.duckduckgo.com/html/?q=honey+bees';

  it('reads web results, unwrapping /l/?uddg= links and skipping ads', () => {
    const web = engine.parseWeb(page('duckduckgo', 'web'), base);
    expect(web.map((r) => r.url)).toEqual([
      WIKIPEDIA,
      'https://www.nationalgeographic.com/animals/invertebrates/facts/honeybee',
      'https://www.fs.usda.gov/wildflowers/pollinators/pollinator-of-the-month/honey_bees.shtml',
    ]);
    expect(web[0]).toEqual({
      url: WIKIPEDIA,
      title: 'Honey bee - Wikipedia',
      description: expect.stringContaining(
        'A honey bee (also spelled honeybee) is a eusocial flying insect',
      ) as string,
    });
  });

  it('reads news with source time, snippet and image', () => {
    const news = engine.parseNews(
      page('duckduckgo', 'news'),
      'https://duckduckgo.com/?q=honey+bees&iar=news',
    );
    expect(news).toHaveLength(2);
    expect(news[0]).toEqual({
      title: 'Beekeepers brace for another winter of honeybee colony losses',
      url: 'https://www.theguardian.com/environment/2026/nov/20/honeybee-colonies-winter-losses',
      snippet: expect.stringContaining('managed honey bee colonies') as string,
      date: '2 hours ago',
      imageUrl: 'https://i.guim.co.uk/img/media/bees.jpg',
    });
    expect(news[1]?.url).toBe('https://apnews.com/article/bees-pollinators-mites-study');
  });

  it('reads image tiles with the original image, its page and size', () => {
    const images = engine.parseImages(
      page('duckduckgo', 'images'),
      'https://duckduckgo.com/?q=honey+bees&iax=images',
    );
    expect(images[0]).toEqual({
      title: 'Apis mellifera Western honey bee - Wikimedia Commons',
      imageUrl: COMMONS_IMAGE,
      imageWidth: 3000,
      imageHeight: 2000,
      url: 'https://commons.wikimedia.org/wiki/File:Apis_mellifera_Western_honey_bee.jpg',
    });
    expect(images[1]).toMatchObject({
      imageWidth: 800,
      imageHeight: 600,
      url: 'https://example-bees.org/hive-frames',
    });
  });
});

describe('Bing result pages', () => {
  const engine = SEARCH_ENGINES.bing;
  const base = 'https://www.bing.com/search?q=honey+bees';

  it('reads web results, decoding /ck/a redirect links and skipping ads', () => {
    const web = engine.parseWeb(page('bing', 'web'), base);
    expect(web.map((r) => r.url)).toEqual([
      WIKIPEDIA,
      'https://www.britannica.com/animal/honeybee',
      'https://www.beeculture.com/a-closer-look-honey-bee-queens/',
    ]);
    expect(web[0]?.title).toBe('Honey bee - Wikipedia');
    expect(web[1]?.description).toMatch(/^Honeybee, \(tribe Apini\)/);
    expect(web[2]?.description).toBe('The queen is the only sexually developed female in the hive.');
  });

  it('reads news cards from their data attributes', () => {
    const news = engine.parseNews(page('bing', 'news'), 'https://www.bing.com/news/search?q=honey+bees');
    expect(news[0]).toEqual({
      title: 'US beekeepers report record honeybee colony losses',
      url: 'https://www.reuters.com/science/honeybees-winter-2026-11-20/',
      snippet: expect.stringMatching(/fell by more than half between April and November\.$/) as string,
      date: '3 hours ago',
      imageUrl: 'https://th.bing.com/th?id=OVFT.abc123&pid=News&w=234&h=132',
    });
    expect(news[1]).toMatchObject({
      url: 'https://www.bbc.co.uk/news/science-environment-bees',
      date: '1 day ago',
    });
  });

  it('reads image tiles from their m attribute, skipping broken ones', () => {
    const images = engine.parseImages(
      page('bing', 'images'),
      'https://www.bing.com/images/search?q=honey+bees',
    );
    expect(images).toHaveLength(2);
    expect(images[0]).toEqual({
      title: 'Western honey bee on a flower',
      imageUrl: COMMONS_IMAGE,
      imageWidth: 3000,
      imageHeight: 2000,
      url: 'https://commons.wikimedia.org/wiki/File:Apis_mellifera_Western_honey_bee.jpg',
    });
  });
});

describe('Google result pages', () => {
  const engine = SEARCH_ENGINES.google;
  const base = 'https://www.google.com/search?q=honey+bees';

  it('reads organic results (direct and /url?q= links), not ads or "people also ask"', () => {
    const web = engine.parseWeb(page('google', 'web'), base);
    expect(web.map((r) => r.url)).toEqual([
      WIKIPEDIA,
      'https://www.nationalgeographic.com/animals/invertebrates/facts/honeybee',
      'https://www.ars.usda.gov/oc/br/ccd/index/',
    ]);
    expect(web[0]?.description).toMatch(/^A honey bee \(also spelled honeybee\)/);
    expect(web[2]?.description).toBe(
      'Colony collapse disorder is the phenomenon when worker bees abandon the hive.',
    );
  });

  it('reads news results', () => {
    const news = engine.parseNews(page('google', 'news'), `${base}&tbm=nws`);
    expect(news.map((n) => n.url)).toEqual([
      'https://www.theguardian.com/environment/2026/nov/20/honeybee-colonies-winter-losses',
      'https://apnews.com/article/bees-pollinators-mites-study',
    ]);
    expect(news[0]).toMatchObject({
      title: 'Beekeepers brace for another winter of honeybee colony losses',
      date: '2 hours ago',
    });
  });

  it('reads image results from /imgres links', () => {
    const images = engine.parseImages(page('google', 'images'), `${base}&tbm=isch`);
    expect(images[0]).toEqual({
      title: 'Western honey bee - Wikimedia Commons',
      imageUrl: COMMONS_IMAGE,
      imageWidth: 3000,
      imageHeight: 2000,
      url: 'https://commons.wikimedia.org/wiki/File:Apis_mellifera_Western_honey_bee.jpg',
    });
    expect(images[1]).toMatchObject({ title: 'Frame from a honey bee hive', imageWidth: 800 });
  });
});

describe('result page URLs', () => {
  const query = (tbs?: string): SearchQuery => ({
    text: 'honey site:example.com',
    parsed: parseQuery('honey site:example.com imagesize:800x600'),
    sources: ['web'],
    limit: 10,
    teamId: 't',
    tbs,
    lang: 'en',
    country: 'us',
    signal: new AbortController().signal,
  });

  it('passes the query with its operators, region and time filter', () => {
    const ddg = SEARCH_ENGINES.duckduckgo.resultPageUrl(query('qdr:w'), 'web');
    expect(ddg.origin + ddg.pathname).toBe('https://html.duckduckgo.com/html/');
    expect(Object.fromEntries(ddg.searchParams)).toMatchObject({
      q: 'honey site:example.com',
      kl: 'us-en',
      df: 'w',
    });
    const google = SEARCH_ENGINES.google.resultPageUrl(query('qdr:d'), 'news');
    expect(Object.fromEntries(google.searchParams)).toMatchObject({ tbm: 'nws', tbs: 'qdr:d', gl: 'us' });
    const bing = SEARCH_ENGINES.bing.resultPageUrl(query(), 'images');
    expect(bing.searchParams.get('qft')).toBe('+filterui:imagesize-custom_800_600');
  });
});
