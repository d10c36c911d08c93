import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AD_HOST } from '../helpers/fixture-behaviours';
import { startFixtureSite } from '../helpers/fixture-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  // The fixture's "ad server" answers under a name from the block list, resolved to loopback.
  tabhive = await startTestTabhive({ extraChromeArgs: [`--host-resolver-rules=MAP ${AD_HOST} 127.0.0.1`] });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

const adRequests = () => site.hits.filter((hit) => hit.host.startsWith(`${AD_HOST}:`)).length;

describe('blockAds', () => {
  it('blocks requests to listed ad domains by default, and lets them through when off', async () => {
    // The ad is an image: with media loaded (blockMedia off), only the ad block stands in its way.
    const page = { url: site.url('/ad-page.html'), blockMedia: false };
    const blocked = await tabhive.post('/v2/scrape', page);
    expect(blocked.status).toBe(200);
    expect(blocked.json.data.markdown).toContain('Article text.');
    expect(adRequests()).toBe(0);

    const allowed = await tabhive.post('/v2/scrape', { ...page, blockAds: false });
    expect(allowed.status).toBe(200);
    expect(adRequests()).toBeGreaterThan(0);
  });

  it('hides known cookie banners with blockAds, and leaves them when off', async () => {
    const body = { url: site.url('/cookie-banner.html'), onlyMainContent: false };
    const hidden = await tabhive.post('/v2/scrape', body);
    expect(hidden.json.data.markdown).toContain('The honey report.');
    expect(hidden.json.data.markdown).not.toContain('We use cookies');
    const shown = await tabhive.post('/v2/scrape', { ...body, blockAds: false });
    expect(shown.json.data.markdown).toContain('We use cookies');
  });

  it('hides the banners without changing the page’s own HTML', async () => {
    // waitFor sends it through the browser, where the banner rules are applied.
    const { json } = await tabhive.post('/v2/scrape', {
      url: site.url('/cookie-banner.html'),
      formats: ['rawHtml', 'markdown'],
      onlyMainContent: false,
      waitFor: 50,
      maxAge: 0,
    });
    expect(json.data.markdown).not.toContain('We use cookies');
    expect(json.data.rawHtml).toContain('onetrust-banner-sdk');
    expect(json.data.rawHtml).not.toMatch(/<style/i);
  });

  it('leaves no session rules behind', async () => {
    const status = () => tabhive.tabhive.hub.browserStatuses()[0]?.status;
    const before = status();
    await tabhive.post('/v2/scrape', { url: site.url('/ad-page.html'), headers: { 'X-Hive': '1' } });
    // The browser reports its state once the task has cleaned up.
    await waitUntil(() => status() !== before && status()?.runningTasks === 0, 5_000, 'the report');
    expect(status()?.sessionRules).toBe(0);
  });
});
