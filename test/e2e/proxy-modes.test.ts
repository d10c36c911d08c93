import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site';
import { startRecordingProxy } from '../helpers/recording-proxy';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  proxy = await startRecordingProxy();
  tabhive = await startTestTabhive({ stealthBrowsers: 1, env: { STEALTH_PROXY_URL: proxy.url } });
});
afterAll(async () => {
  await tabhive?.stop();
  await proxy?.close();
  await site?.close();
});

const proxied = (path: string) => proxy.urls.filter((url) => url === site.url(path)).length;

describe('proxy modes', () => {
  it('runs basic on a directly connected browser', async () => {
    const { json } = await tabhive.post('/v2/scrape', { url: site.url('/?basic'), proxy: 'basic' });
    expect(json.data.metadata).toMatchObject({ proxyUsed: 'basic', creditsUsed: 1, statusCode: 200 });
    expect(proxied('/?basic')).toBe(0);
  });

  it('runs stealth through the upstream proxy and bills 4 more credits', async () => {
    const { json } = await tabhive.post('/v2/scrape', { url: site.url('/?stealth'), proxy: 'stealth' });
    expect(json.data.markdown).toContain('Welcome to the hive');
    expect(json.data.metadata).toMatchObject({ proxyUsed: 'stealth', creditsUsed: 5 });
    expect(proxied('/?stealth')).toBe(1);
  });

  it('auto keeps a good basic result, and retries a blocked page on stealth', async () => {
    const plain = await tabhive.post('/v2/scrape', { url: site.url('/?auto') });
    expect(plain.json.data.metadata).toMatchObject({ proxyUsed: 'basic', creditsUsed: 1 });
    expect(proxied('/?auto')).toBe(0);

    const blocked = await tabhive.post('/v2/scrape', { url: site.url('/forbidden') });
    expect(blocked.status).toBe(200);
    expect(blocked.json.data.metadata).toMatchObject({
      proxyUsed: 'stealth',
      creditsUsed: 5,
      statusCode: 403,
    });
    expect(proxied('/forbidden')).toBe(1);
    // Tried directly first: once over HTTP (the fast path), then in a basic browser, then in the
    // stealth one. The scheduler may retry a browser attempt on a loaded machine, so the browser
    // fetches are counted as at least two.
    const fetchers = site.hits
      .filter((hit) => hit.path === '/forbidden')
      .map((hit) => (String(hit.headers['user-agent']).startsWith('TabhiveBot/') ? 'http' : 'browser'));
    expect(fetchers[0]).toBe('http');
    expect(fetchers.filter((fetcher) => fetcher === 'http')).toHaveLength(1);
    expect(fetchers.filter((fetcher) => fetcher === 'browser').length).toBeGreaterThanOrEqual(2);
  });

  it('basic does not escalate', async () => {
    const { json } = await tabhive.post('/v2/scrape', { url: site.url('/forbidden?basic'), proxy: 'basic' });
    expect(json.data.metadata).toMatchObject({ proxyUsed: 'basic', statusCode: 403 });
    expect(proxied('/forbidden?basic')).toBe(0);
  });
});
