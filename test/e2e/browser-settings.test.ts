import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site';
import { startSelfSignedSite } from '../helpers/self-signed-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tls: Awaited<ReturnType<typeof startSelfSignedSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startFixtureSite();
  tls = await startSelfSignedSite(
    '<!doctype html><title>Self-signed</title><p>Behind a homemade certificate</p>',
  );
  tabhive = await startTestTabhive();
});
afterAll(async () => {
  await tabhive?.stop();
  await tls?.close();
  await site?.close();
});

const hitsOf = (query: string) => site.hits.filter((hit) => hit.path === '/echo' && hit.query === query);

describe('per-task browser settings', () => {
  it('sends the caller headers, Cookie included, only on that task’s requests', async () => {
    const [withHeaders, without] = await Promise.all([
      tabhive.post('/v2/scrape', {
        url: site.url('/echo?task=a'),
        headers: { 'X-Hive-Test': 'queen', Cookie: 'session=royal' },
        waitFor: 500,
      }),
      tabhive.post('/v2/scrape', { url: site.url('/echo?task=b'), waitFor: 500 }),
    ]);
    expect([withHeaders.status, without.status]).toEqual([200, 200]);
    const [a] = hitsOf('?task=a');
    const [b] = hitsOf('?task=b');
    expect(a?.headers).toMatchObject({ 'x-hive-test': 'queen', cookie: 'session=royal' });
    expect(b?.headers['x-hive-test']).toBeUndefined();
    expect(b?.headers.cookie).toBeUndefined();
  });

  it('emulates a phone: viewport, touch and a mobile user agent', async () => {
    const { json } = await tabhive.post('/v2/scrape', { url: site.url('/where.html'), mobile: true });
    expect(json.data.markdown).toMatch(
      /width 412 touch 5 ua Mozilla\/5\.0 \(Linux; Android 10; K\).* Mobile Safari/,
    );
    const desktop = await tabhive.post('/v2/scrape', { url: site.url('/where.html') });
    expect(desktop.json.data.markdown).not.toContain('Mobile');
    expect(desktop.json.data.markdown).toMatch(/touch 0/);
  });

  it('emulates a country: language, Accept-Language, time zone and position', async () => {
    const { json } = await tabhive.post('/v2/scrape', {
      url: site.url('/where.html'),
      location: { country: 'jp', languages: ['ja-JP'] },
    });
    expect(json.data.markdown).toContain('language ja-JP');
    expect(json.data.markdown).toContain('zone Asia/Tokyo');
    expect(json.data.markdown).toContain('at 35.68,139.69');
    const hit = site.hits.findLast((entry) => entry.path === '/where.html');
    expect(hit?.headers['accept-language']).toBe('ja-JP,ja;q=0.9');
  });

  it('accepts a self-signed certificate by default and refuses it when asked to verify', async () => {
    const relaxed = await tabhive.post('/v2/scrape', { url: tls.url });
    expect(relaxed.status).toBe(200);
    expect(relaxed.json.data.markdown).toContain('Behind a homemade certificate');
    // maxAge 0: the scrape cache's key does not include skipTlsVerification (yet).
    const strict = await tabhive.post('/v2/scrape', { url: tls.url, skipTlsVerification: false, maxAge: 0 });
    expect(strict.status).toBe(500);
    expect(strict.json).toMatchObject({ success: false, code: 'SCRAPE_SSL_ERROR' });
  });
});
