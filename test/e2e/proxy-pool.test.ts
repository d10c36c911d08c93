import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../server/platform/log';
import { startCrawlSite } from '../helpers/crawl-site';
import { startFixtureSite } from '../helpers/fixture-site';
import { type PoolProxy, startPoolProxy } from '../helpers/pool-proxies';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * The proxy pool with real Chromium (docs/browser-control.md#proxy-pool): five loopback HTTP
 * proxies (one asking for credentials) in PROXY_POOL, the fast path off so that every page is a
 * browser task, and each site under a `.localhost` name of its own so that each has its own
 * route. What a page went through is read from the proxies' own records.
 */
const PASSWORD = 'Wax-and-Pollen-8642';
const ADMIN_API_KEY = 'admin-7e57-proxy-pool-00000000001';
const METRICS_TOKEN = 'metrics-token-proxy-pool-0001';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let crawlSite: Awaited<ReturnType<typeof startCrawlSite>>;
let germany: PoolProxy;
let france1: PoolProxy;
let france2: PoolProxy;
let italyDown: PoolProxy;
let italy: PoolProxy;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let logText = '';

/** The fixture site's page under a name of its own. */
const at = (host: string, path: string) => site.url(path).replace('127.0.0.1', host);
const proxies = () => [germany, france1, france2, italyDown, italy];
const through = (url: string) => proxies().filter((proxy) => proxy.seen.includes(url));

beforeAll(async () => {
  site = await startFixtureSite();
  crawlSite = await startCrawlSite();
  germany = await startPoolProxy({ username: 'bee', password: PASSWORD });
  france1 = await startPoolProxy();
  france2 = await startPoolProxy();
  italyDown = await startPoolProxy();
  italy = await startPoolProxy();
  tabhive = await startTestTabhive({
    env: {
      PROXY_POOL: [
        `${germany.url} DE`,
        `${france1.url} FR`,
        `${france2.url} FR`,
        `${italyDown.url} IT`,
        `${italy.url} IT`,
      ].join(', '),
      HTTP_FAST_PATH: 'false',
      // Checked once at start; the proxies that go down later are found by their failures.
      PROXY_POOL_CHECK_INTERVAL_SECONDS: '3600',
      ADMIN_API_KEY,
      METRICS_TOKEN,
    },
    log: createLog({
      format: 'json',
      level: 'debug',
      destination: { write: (line: string) => void (logText += line) },
    }),
  });
  // Down only after the start's health check passed: the pool still believes in it.
  await italyDown.close();
});
afterAll(async () => {
  await tabhive?.stop();
  await Promise.all(proxies().map((proxy) => proxy?.close()));
  await crawlSite?.close();
  await site?.close();
});

describe('the proxy pool with launched browsers', () => {
  it('takes a page through a proxy of location.country', async () => {
    const url = at('fr.localhost', '/?in-france');
    const { status, json } = await tabhive.post('/v2/scrape', { url, location: { country: 'FR' } });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Welcome to the hive');
    const used = through(url);
    expect(used).toHaveLength(1);
    expect([france1, france2]).toContain(used[0]);
  });

  it('says so when no proxy of the pool is in the country asked for', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: at('jp.localhost', '/?in-japan'),
      location: { country: 'JP' },
    });
    expect(status).toBe(400);
    expect(json).toMatchObject({ success: false, code: 'NO_PROXY_FOR_COUNTRY' });
    expect(json.error).toContain('JP');
  });

  it("keeps one proxy for all of a crawl's pages", async () => {
    const started = await tabhive.post('/v2/crawl', {
      url: crawlSite.url('/', 'sticky.localhost'),
      limit: 6,
    });
    expect(started.status).toBe(200);
    await waitUntil(
      async () => (await tabhive.get(`/v2/crawl/${started.json.id}`)).json.status === 'completed',
      90_000,
      'the crawl to complete',
    );
    const { json } = await tabhive.get(`/v2/crawl/${started.json.id}`);
    expect(json.data.length).toBeGreaterThanOrEqual(3);
    const pageUrls = json.data.map((page: { metadata: { sourceURL: string } }) => page.metadata.sourceURL);
    const used = new Set(pageUrls.flatMap((url: string) => through(url)));
    expect(used.size).toBe(1);
  });

  it('runs a page that looks blocked again through the next proxy', async () => {
    const url = at('blocks.localhost', '/?blocked-first');
    // The site refuses whichever proxy asks for the page first.
    let refused: PoolProxy | undefined;
    for (const proxy of proxies()) {
      proxy.blocks = (asked) => {
        if (asked !== url || (refused !== undefined && refused !== proxy)) return false;
        refused = proxy;
        return true;
      };
    }
    try {
      const { status, json } = await tabhive.post('/v2/scrape', { url, proxy: 'basic' });
      expect(status).toBe(200);
      expect(json.data.metadata.statusCode).toBe(200);
      expect(json.data.markdown).toContain('Welcome to the hive');
      expect(refused).toBeDefined();
      const used = through(url);
      expect(used.length).toBeGreaterThanOrEqual(2);
      expect(used[0]).toBe(refused);
    } finally {
      for (const proxy of proxies()) proxy.blocks = undefined;
    }
  });

  it('runs a page again through the next proxy when its proxy cannot be reached', async () => {
    // Two sites in a row: the pool takes its proxies in turn, so one of them meets the dead one first.
    for (const host of ['down1.localhost', 'down2.localhost']) {
      const url = at(host, `/?${host}`);
      const { status, json } = await tabhive.post('/v2/scrape', { url, location: { country: 'IT' } });
      expect(status).toBe(200);
      expect(json.data.markdown).toContain('Welcome to the hive');
      expect(through(url)).toEqual([italy]);
    }
    const { json } = await consoleApi('/proxies');
    expect(json.data.find((proxy: { id: string }) => proxy.id === italyDown.id).failures).toBeGreaterThan(0);
  });

  it('counts each proxy in /metrics and on the console, and never shows a credential', async () => {
    const url = at('de.localhost', '/?in-germany');
    const ok = await tabhive.post('/v2/scrape', { url, location: { country: 'DE' } });
    expect(ok.status).toBe(200);
    expect(through(url)).toEqual([germany]);
    // The credentialed proxy fails: its password must appear nowhere even then.
    await germany.close();
    const failed = await tabhive.post('/v2/scrape', {
      url: at('de.localhost', '/?germany-down'),
      location: { country: 'DE' },
    });
    expect(failed.status).toBe(503);
    expect(failed.json).toMatchObject({ success: false, code: 'PROXY_FAILED' });

    const readMetrics = async () =>
      (
        await fetch(`${tabhive.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
    // A browser's connection is counted when it closes, which its proxy's end brings about a moment later.
    const success = new RegExp(
      `tabhive_proxy_requests_total\\{proxy="${germany.id}",country="DE",outcome="success"\\} [1-9]`,
    );
    await expect.poll(readMetrics, { timeout: 15_000 }).toMatch(success);
    const metricsText = await readMetrics();
    expect(metricsText).toMatch(
      new RegExp(
        `tabhive_proxy_requests_total\\{proxy="${germany.id}",country="DE",outcome="failure"\\} [1-9]`,
      ),
    );
    expect(metricsText).toMatch(
      new RegExp(`tabhive_proxy_requests_total\\{proxy="[^"]+",country="[A-Z]*",outcome="blocked"\\} 1`),
    );

    const consoleProxies = await consoleApi('/proxies');
    expect(consoleProxies.json.data.map((proxy: { id: string }) => proxy.id)).toEqual(
      proxies().map((proxy) => proxy.id),
    );
    const teamView = await fetch(`${tabhive.url}/console/api/proxies`, {
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect((await teamView.json()) as unknown).toEqual({ success: true, data: [] });
    const browsers = await consoleApi('/browsers');

    for (const text of [
      metricsText,
      JSON.stringify(consoleProxies.json),
      JSON.stringify(browsers.json),
      logText,
    ]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(encodeURIComponent(PASSWORD));
    }
    expect(logText).toContain(germany.id);
  });
});

async function consoleApi(path: string) {
  const response = await fetch(`${tabhive.url}/console/api${path}`, {
    headers: { authorization: `Bearer ${ADMIN_API_KEY}` },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the console's JSON, asserted on by shape
  return { status: response.status, json: (await response.json()) as any };
}
