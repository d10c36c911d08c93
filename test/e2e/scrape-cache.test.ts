import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site';
import { storeBackends } from '../helpers/store-backends';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => site?.close());

const hits = (pathname: string) => site.requests.filter((request) => request === pathname).length;

describe.each(storeBackends())('the scrape cache on the $name store', (backend) => {
  let dataDir: string;
  let env: Record<string, string>;
  let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-cache-'));
    env = await backend.start();
    tabhive = await startTestTabhive({ dataDir, env });
  });
  afterAll(async () => {
    await tabhive?.stop();
    await backend.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers the second scrape of a page from the cache', async () => {
    const url = site.url(`/docs/getting-started.html?backend=${backend.name}`);
    const first = await tabhive.post('/v2/scrape', { url });
    expect(first.json.data.metadata.cacheState).toBe('miss');
    expect(first.json.data.metadata.cachedAt).toBeUndefined();
    const fetches = hits('/docs/getting-started.html');

    const second = await tabhive.post('/v2/scrape', { url, formats: ['markdown', 'html', 'links'] });
    expect(second.status).toBe(200);
    expect(second.json.data.metadata.cacheState).toBe('hit');
    expect(Date.parse(second.json.data.metadata.cachedAt)).toBeLessThanOrEqual(Date.now());
    // Other formats come from the same capture; the site was not asked again.
    expect(second.json.data.markdown).toBe(first.json.data.markdown);
    expect(second.json.data.html).toContain('Getting started');
    expect(second.json.data.links).toContain(site.url('/index.html'));
    expect(second.json.data.metadata.scrapeId).not.toBe(first.json.data.metadata.scrapeId);
    expect(hits('/docs/getting-started.html')).toBe(fetches);
  });

  it('goes to the page when maxAge is 0, and then reports no cacheState', async () => {
    const url = site.url(`/?maxAge=${backend.name}`);
    await tabhive.post('/v2/scrape', { url });
    const before = hits('/');
    const fresh = await tabhive.post('/v2/scrape', { url, maxAge: 0 });
    expect(fresh.json.data.metadata.cacheState).toBeUndefined();
    expect(hits('/')).toBe(before + 1);
  });

  it('does not store a page scraped with storeInCache false', async () => {
    const url = site.url(`/?noStore=${backend.name}`);
    const first = await tabhive.post('/v2/scrape', { url, storeInCache: false });
    const second = await tabhive.post('/v2/scrape', { url, storeInCache: false });
    expect(first.json.data.metadata.cacheState).toBe('miss');
    expect(second.json.data.metadata.cacheState).toBe('miss');
  });

  it('keeps separate entries for options that change what the browser sees', async () => {
    const url = site.url(`/?variants=${backend.name}`);
    await tabhive.post('/v2/scrape', { url });
    expect((await tabhive.post('/v2/scrape', { url, mobile: true })).json.data.metadata.cacheState).toBe(
      'miss',
    );
    expect((await tabhive.post('/v2/scrape', { url, blockAds: false })).json.data.metadata.cacheState).toBe(
      'miss',
    );
    expect(
      (await tabhive.post('/v2/scrape', { url, location: { country: 'de' } })).json.data.metadata.cacheState,
    ).toBe('miss');
    expect((await tabhive.post('/v2/scrape', { url })).json.data.metadata.cacheState).toBe('hit');
  });

  it('bypasses the cache for headers and keeps nothing under zero data retention', async () => {
    const url = site.url(`/?bypass=${backend.name}`);
    const withHeaders = await tabhive.post('/v2/scrape', { url, headers: { 'x-test': '1' } });
    expect(withHeaders.json.data.metadata.cacheState).toBeUndefined();
    const zdr = await tabhive.post('/v2/scrape', { url, zeroDataRetention: true });
    expect(zdr.json.data.metadata.cacheState).toBeUndefined();
    expect((await tabhive.get(`/v2/scrape/${zdr.json.data.metadata.scrapeId}`)).status).toBe(404);
    // Neither request left an entry behind.
    expect((await tabhive.post('/v2/scrape', { url })).json.data.metadata.cacheState).toBe('miss');
  });

  it('serves a stored result by id, exactly as it was answered', async () => {
    const scraped = await tabhive.post('/v2/scrape', {
      url: site.url(`/?byId=${backend.name}`),
      formats: ['markdown', 'links'],
    });
    const stored = await tabhive.get(`/v2/scrape/${scraped.json.data.metadata.scrapeId}`);
    expect(stored.status).toBe(200);
    expect(JSON.stringify(stored.json.data)).toBe(JSON.stringify(scraped.json.data));
    const missing = await tabhive.get('/v2/scrape/00000000-0000-4000-8000-000000000000');
    expect(missing).toEqual({ status: 404, json: { success: false, error: 'Job not found.' } });
  });

  it('still serves cached pages and stored results after a restart without browsers', async () => {
    const url = site.url(`/js-rendered.html?restart=${backend.name}`);
    const first = await tabhive.post('/v2/scrape', { url });
    await tabhive.stop();
    tabhive = await startTestTabhive({ dataDir, env, browsers: 0 });
    expect(tabhive.tabhive.hub.connectedBrowsers()).toBe(0);

    const again = await tabhive.post('/v2/scrape', { url });
    expect(again.status).toBe(200);
    expect(again.json.data.metadata.cacheState).toBe('hit');
    expect(again.json.data.markdown).toBe(first.json.data.markdown);
    const stored = await tabhive.get(`/v2/scrape/${first.json.data.metadata.scrapeId}`);
    expect(stored.json.data).toEqual(first.json.data);
    expect(await backend.countDocuments('cache_entries', dataDir)).toBeGreaterThan(0);
    expect(await backend.countDocuments('documents', dataDir)).toBeGreaterThan(0);
  });
});

describe.each(storeBackends().filter((backend) => backend.outage !== undefined))(
  'a $name outage',
  (backend) => {
    let env: Record<string, string>;
    let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

    beforeAll(async () => {
      env = await backend.start();
      tabhive = await startTestTabhive({ env });
    });
    afterAll(async () => {
      await tabhive?.stop();
      await backend.stop();
    });

    it('answers 503 STORE_UNAVAILABLE for stored results, keeps scraping, and recovers by itself', async () => {
      const url = site.url('/?outage=1');
      const before = await tabhive.post('/v2/scrape', { url });
      const id = before.json.data.metadata.scrapeId as string;
      expect((await tabhive.get(`/v2/scrape/${id}`)).status).toBe(200);

      await backend.outage?.begin();
      const during = await tabhive.get(`/v2/scrape/${id}`);
      expect(during.status).toBe(503);
      expect(during.json).toMatchObject({ success: false, code: 'STORE_UNAVAILABLE' });
      // Scraping does not need the database: the cache is skipped while it is away.
      const scraped = await tabhive.post('/v2/scrape', { url });
      expect(scraped.status).toBe(200);
      expect(scraped.json.data.markdown).toContain('Welcome to the hive');

      await backend.outage?.end();
      await waitUntil(
        async () => (await tabhive.get(`/v2/scrape/${id}`)).status === 200,
        30_000,
        'the store to come back',
      );
      expect((await tabhive.post('/v2/scrape', { url })).json.data.metadata.cacheState).toBe('hit');
    });
  },
);
