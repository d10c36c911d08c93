import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSearxng } from '../helpers/fake-searxng';
import { startSearchSite, startSerpEngine } from '../helpers/search-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

type Site = Awaited<ReturnType<typeof startSearchSite>>;
type Tabhive = Awaited<ReturnType<typeof startTestTabhive>>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent
const urlsOf = (items: any[] | undefined) => (items ?? []).map((item: { url: string }) => item.url);

describe('search on the local index', () => {
  let site: Site;
  let tabhive: Tabhive;
  const search = (body: Record<string, unknown>) => tabhive.post('/v2/search', body);

  beforeAll(async () => {
    site = await startSearchSite();
    tabhive = await startTestTabhive();
    for (const path of ['/queen.html', '/honey.html', '/wasps.html']) {
      expect((await tabhive.post('/v2/scrape', { url: site.url(path), formats: ['rawHtml'] })).status).toBe(
        200,
      );
    }
    await tabhive.post('/v2/scrape', { url: site.url('/guide/hive.html', 'docs.bees.localhost') });
    await tabhive.post('/v2/scrape', { url: site.url('/secret.html'), zeroDataRetention: true });
    const batch = await tabhive.post('/v2/batch/scrape', { urls: [site.url('/propolis.html')] });
    await waitUntil(
      async () => (await tabhive.get(`/v2/batch/scrape/${batch.json.id}`)).json.status === 'completed',
      60_000,
      'the batch scrape',
    );
  }, 120_000);
  afterAll(async () => {
    await tabhive?.stop();
    await site?.close();
  });

  it('finds scraped pages by their words, with title, description and position', async () => {
    const { status, json } = await search({ query: 'royal jelly' });
    expect(status).toBe(200);
    expect(json).toEqual({
      success: true,
      data: {
        web: [
          {
            url: site.url('/queen.html'),
            title: 'The queen bee',
            description: 'How a colony raises its queen',
            position: 1,
          },
        ],
      },
      creditsUsed: 1,
    });
  });

  it('ranks the page most about the words first and stays within limit', async () => {
    const { json } = await search({ query: 'queen', limit: 2 });
    expect(json.data.web).toHaveLength(2);
    expect(json.data.web[0].url).toBe(site.url('/queen.html'));
    expect(json.creditsUsed).toBe(2);
  });

  it('honours "exact", -term, site:, intitle: and inurl:', async () => {
    expect(urlsOf((await search({ query: '"laying queen"' })).json.data.web)).toEqual([
      site.url('/guide/hive.html', 'docs.bees.localhost'),
    ]);
    expect(urlsOf((await search({ query: 'honey -wasps' })).json.data.web)).toEqual([
      site.url('/honey.html'),
    ]);
    expect(urlsOf((await search({ query: 'queen site:docs.bees.localhost' })).json.data.web)).toEqual([
      site.url('/guide/hive.html', 'docs.bees.localhost'),
    ]);
    expect(urlsOf((await search({ query: 'queen -site:docs.bees.localhost' })).json.data.web).sort()).toEqual(
      [site.url('/queen.html'), site.url('/wasps.html')].sort(),
    );
    expect(urlsOf((await search({ query: 'intitle:queen' })).json.data.web)).toEqual([
      site.url('/queen.html'),
    ]);
    expect(urlsOf((await search({ query: 'intitle:queen wasps' })).json.data.web)).toEqual([]);
    expect(urlsOf((await search({ query: 'allintitle: wasp nests' })).json.data.web)).toEqual([
      site.url('/wasps.html'),
    ]);
    expect(urlsOf((await search({ query: 'inurl:guide' })).json.data.web)).toEqual([
      site.url('/guide/hive.html', 'docs.bees.localhost'),
    ]);
  });

  it('indexes batch pages, and never pages scraped with zeroDataRetention', async () => {
    expect(urlsOf((await search({ query: 'propolis' })).json.data.web)).toEqual([site.url('/propolis.html')]);
    const secret = await search({ query: 'zanzibar' });
    expect(secret.json).toEqual({
      success: true,
      data: {},
      creditsUsed: 0,
      warning: 'No search results found',
    });
  });

  it('scrapes every result with scrapeOptions and bills the scrapes', async () => {
    const { json } = await search({
      query: 'honey',
      limit: 2,
      scrapeOptions: { formats: ['markdown', 'links'] },
    });
    expect(json.data.web).toHaveLength(2);
    for (const result of json.data.web) {
      expect(result.markdown).toMatch(/honey/i);
      expect(result.metadata).toMatchObject({ statusCode: 200, sourceURL: result.url, creditsUsed: 1 });
      expect(result).toHaveProperty('links');
      expect(result).toHaveProperty('title');
    }
    expect(json.creditsUsed).toBe(2);
  });

  it('answers v1 with an array of web results, scraped or not', async () => {
    const plain = await tabhive.post('/v1/search', { query: 'royal jelly', limit: 3 });
    expect(plain.json).toEqual({
      success: true,
      data: [
        {
          url: site.url('/queen.html'),
          title: 'The queen bee',
          description: 'How a colony raises its queen',
        },
      ],
    });
    const scraped = await tabhive.post('/v1/search', {
      query: 'harvest',
      scrapeOptions: { formats: ['markdown'] },
    });
    expect(scraped.json.data).toHaveLength(1);
    expect(scraped.json.data[0]).toMatchObject({ url: site.url('/honey.html'), title: 'Honey harvest' });
    expect(scraped.json.data[0].markdown).toContain('late summer');
    expect(scraped.json).not.toHaveProperty('creditsUsed');
    const none = await tabhive.post('/v1/search', { query: 'elephants' });
    expect(none.json).toEqual({ success: true, data: [], warning: 'No search results found' });
  });

  it('says that news and images need another provider', async () => {
    const { json } = await search({ query: 'queen', sources: ['web', 'news'] });
    expect(json.data).not.toHaveProperty('news');
    expect(json.warning).toMatch(/local index holds web pages only/);
  });

  it('books credits on the ledger, and answers 402 once an allowance is spent', async () => {
    const teams = tabhive.tabhive.stores.teams;
    const before = (await teams.get('default'))?.creditsUsed ?? 0;
    expect((await search({ query: 'queen', limit: 3 })).json.creditsUsed).toBe(3);
    expect((await teams.get('default'))?.creditsUsed).toBe(before + 3);
    await teams.configure('default', { creditAllowance: before + 3 });
    try {
      const refused = await search({ query: 'queen' });
      expect(refused.status).toBe(402);
      expect(refused.json.error).toMatch(/^Insufficient credits/);
    } finally {
      await teams.configure('default', { creditAllowance: null });
    }
  });

  it('refuses bad bodies in each version’s shape', async () => {
    const v2 = await search({ query: 'x', limit: 0, surprise: true });
    expect(v2.status).toBe(400);
    expect(v2.json).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Invalid request body: /),
    });
    expect(v2.json).not.toHaveProperty('code');
    expect(JSON.stringify(v2.json.details)).toContain('v1 API documentation');
    const mixed = await search({ query: 'x', sources: ['web', { type: 'news' }] });
    expect(mixed.status).toBe(400);
    const changeTracking = await search({
      query: 'x',
      scrapeOptions: { formats: ['markdown', 'changeTracking'] },
    });
    expect(changeTracking.status).toBe(400);
    const v1 = await tabhive.post('/v1/search', {});
    expect(v1.status).toBe(400);
    expect(v1.json).toMatchObject({
      success: false,
      code: 'BAD_REQUEST',
      error: 'Bad Request: query: is required',
    });
  });
});

describe('search through SearXNG', () => {
  let site: Site;
  let searxng: Awaited<ReturnType<typeof startFakeSearxng>>;
  let slow: Awaited<ReturnType<typeof startFakeSearxng>>;
  let tabhive: Tabhive;
  let slowTabhive: Tabhive;

  beforeAll(async () => {
    site = await startSearchSite();
    searxng = await startFakeSearxng({
      results: () => ({
        general: [
          {
            url: site.url('/queen.html'),
            title: 'The queen bee',
            content: 'How a colony raises its queen; ask keeper@apiary.example',
          },
          { url: 'http://169.254.169.254/latest/meta-data/', title: 'Metadata', content: 'not for scraping' },
          { url: site.url('/missing.html'), title: 'Gone', content: 'A page that no longer exists' },
          { url: 'https://github.com/bees/hive', title: 'bees/hive', content: 'Hive tooling' },
        ],
        news: [{ url: site.url('/honey.html'), title: 'Honey harvest begins', content: 'Frames are capped' }],
        images: [
          {
            url: site.url('/queen.html'),
            title: 'Queen',
            img_src: site.url('/queen.jpg'),
            resolution: '1600x1200',
          },
          {
            url: site.url('/honey.html'),
            title: 'Honey',
            img_src: site.url('/honey.jpg'),
            resolution: '320x240',
          },
        ],
      }),
    });
    slow = await startFakeSearxng({ results: () => ({}), delayMs: 10_000 });
    tabhive = await startTestTabhive({ env: { SEARXNG_URL: searxng.url } });
    slowTabhive = await startTestTabhive({
      browsers: 0,
      env: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: slow.url },
    });
  }, 60_000);
  afterAll(async () => {
    await tabhive?.stop();
    await slowTabhive?.stop();
    await searxng?.close();
    await slow?.close();
    await site?.close();
  });

  it('returns web, news and images from the JSON API, filtered by size operators', async () => {
    const { json } = await tabhive.post('/v2/search', {
      query: 'queen larger:1024x768',
      sources: ['web', 'news', 'images'],
      limit: 10,
      tbs: 'qdr:m',
      categories: [{ type: 'github' }],
    });
    expect(urlsOf(json.data.web)).toEqual([
      site.url('/queen.html'),
      'http://169.254.169.254/latest/meta-data/',
      site.url('/missing.html'),
      'https://github.com/bees/hive',
    ]);
    expect(json.data.web[3]).toMatchObject({ category: 'github', position: 4 });
    expect(json.data.news).toEqual([
      {
        title: 'Honey harvest begins',
        url: site.url('/honey.html'),
        snippet: 'Frames are capped',
        position: 1,
      },
    ]);
    expect(json.data.images).toEqual([
      {
        title: 'Queen',
        imageUrl: site.url('/queen.jpg'),
        imageWidth: 1600,
        imageHeight: 1200,
        url: site.url('/queen.html'),
        position: 1,
      },
    ]);
    expect(json.creditsUsed).toBe(6);
    const sent = searxng.queries.find((q) => q.get('categories') === 'general');
    expect(sent?.get('q')).toBe('queen larger:1024x768 site:github.com');
    expect(sent?.get('time_range')).toBe('month');
  });

  it('scrapes results, keeps failed ones with their error, and drops invalid URLs on request', async () => {
    const { json } = await tabhive.post('/v2/search', {
      query: 'queen',
      ignoreInvalidURLs: true,
      limit: 2,
      scrapeOptions: { formats: ['markdown'] },
    });
    expect(urlsOf(json.data.web)).toEqual([site.url('/queen.html'), site.url('/missing.html')]);
    expect(json.data.web[0].markdown).toContain('Royal jelly');
    expect(json.data.web[1].metadata.statusCode).toBe(404);
    expect(json.warning).toMatch(/1 result\(s\) with URLs that cannot be scraped were removed/);

    const blocked = await tabhive.post('/v2/search', {
      query: 'queen',
      limit: 2,
      scrapeOptions: { formats: ['markdown'] },
    });
    expect(blocked.json.data.web[1]).toMatchObject({
      url: 'http://169.254.169.254/latest/meta-data/',
      metadata: { statusCode: 403, proxyUsed: 'basic', error: expect.any(String) as string },
    });
    expect(blocked.json.data.web[1]).not.toHaveProperty('markdown');
    expect(blocked.json.warning).toBe('1 result(s) could not be scraped; their metadata.error says why.');
  });

  it("redacts the engine's description of a result as its page is redacted", async () => {
    const { json } = await tabhive.post('/v2/search', {
      query: 'queen',
      ignoreInvalidURLs: true,
      limit: 1,
      scrapeOptions: { formats: ['markdown'], redactPII: { entities: ['EMAIL'] } },
    });
    expect(json.data.web[0].url).toBe(site.url('/queen.html'));
    expect(json.data.web[0].description).toBe('How a colony raises its queen; ask <EMAIL>');
    const plain = await tabhive.post('/v2/search', { query: 'queen', ignoreInvalidURLs: true, limit: 1 });
    expect(plain.json.data.web[0].description).toContain('keeper@apiary.example');
  });

  it('answers 408 SCRAPE_TIMEOUT when the search outlasts its timeout', async () => {
    const { status, json } = await slowTabhive.post('/v2/search', { query: 'slow', timeout: 1_000 });
    expect(status).toBe(408);
    expect(json).toEqual({ success: false, code: 'SCRAPE_TIMEOUT', error: 'Scrape timed out' });
  });
});

describe('browser search on saved result pages', () => {
  let engine: Awaited<ReturnType<typeof startSerpEngine>>;
  let tabhive: Tabhive;

  beforeAll(async () => {
    engine = await startSerpEngine('duckduckgo');
    tabhive = await startTestTabhive({
      env: { SEARCH_PROVIDER: 'browser', SEARCH_ENGINE: 'duckduckgo', SEARCH_ENGINE_URL: engine.url },
    });
  }, 60_000);
  afterAll(async () => {
    await tabhive?.stop();
    await engine?.close();
  });

  it('opens the engine’s result pages in the browser and parses web, news and images', async () => {
    const { status, json } = await tabhive.post('/v2/search', {
      query: 'honey bees -wasps',
      sources: ['web', 'news', 'images'],
      limit: 2,
      country: 'de',
      lang: 'de',
    });
    expect(status).toBe(200);
    expect(urlsOf(json.data.web)).toEqual([
      'https://en.wikipedia.org/wiki/Honey_bee',
      'https://www.nationalgeographic.com/animals/invertebrates/facts/honeybee',
    ]);
    expect(json.data.news[0]).toMatchObject({ date: '2 hours ago', position: 1 });
    expect(json.data.images[0]).toMatchObject({ imageWidth: 3000, imageHeight: 2000 });
    expect(json.creditsUsed).toBe(6);
    const web = engine.queries.find((url) => url.pathname === '/html/');
    expect(web?.searchParams.get('q')).toBe('honey bees -wasps');
    expect(web?.searchParams.get('kl')).toBe('de-de');
    expect(engine.userAgents.length).toBeGreaterThan(0);
    expect(engine.userAgents.every((agent) => agent.includes('Chrome/'))).toBe(true);
  });

  it('does not add result pages to the local index', async () => {
    const stored = await tabhive.tabhive.stores.searchIndex.count('default');
    expect(stored).toBe(0);
  });
});
