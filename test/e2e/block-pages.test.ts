import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEARED_PAGE_TEXT, startBlockPagesSite } from '../helpers/block-pages-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startBlockPagesSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startBlockPagesSite();
  tabhive = await startTestTabhive();
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

/** The test browser's tabs (TABS_PER_BROWSER's default): as many fixtures at once as it can serve. */
const BROWSER_TABS = 4;

/**
 * Runs `work` on every item, at most `limit` at a time, in the order given. Each fixture's own
 * scrapes stay one after the other; only different fixtures overlap.
 */
async function eachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++) await work(items[index] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

const creditsUsed = async () => (await tabhive.tabhive.stores.teams.get('default'))?.creditsUsed ?? 0;
const blocked = () => site.fixtures.filter((fixture) => fixture.expect !== null);
const ordinary = () => site.fixtures.filter((fixture) => fixture.expect === null);

/** Runs a crawl or batch job to its end and returns its status, every document and its errors. */
async function runJob(kind: 'crawl' | 'batch/scrape', body: Record<string, unknown>) {
  const started = await tabhive.post(`/v2/${kind}`, body);
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  const id = started.json.id as string;
  await waitUntil(
    async () => (await tabhive.get(`/v2/${kind}/${id}`)).json.status !== 'scraping',
    120_000,
    `the ${kind} to end`,
  );
  const { json: status } = await tabhive.get(`/v2/${kind}/${id}?limit=100`);
  const { json: errors } = await tabhive.get(`/v2/${kind}/${id}/errors`);
  return {
    status,
    urls: (status.data as Array<{ metadata: { sourceURL: string } }>).map((doc) => doc.metadata.sourceURL),
    errors: errors.errors as Array<{ url: string; code?: string; error: string }>,
  };
}

describe('block and challenge pages', () => {
  it('fails every fixture block page with the vendor named, caches and bills none of them', async () => {
    const before = await creditsUsed();
    await eachConcurrently(blocked(), BROWSER_TABS, async (fixture) => {
      const url = site.url(`/block/${fixture.file}`);
      for (const attempt of [1, 2]) {
        const { status, json } = await tabhive.post('/v2/scrape', { url, formats: ['markdown'] });
        expect({ file: fixture.file, attempt, status, success: json.success, code: json.code }).toEqual({
          file: fixture.file,
          attempt,
          status: 500,
          success: false,
          code: 'SCRAPE_SITE_ERROR',
        });
        expect(json.error).toContain(fixture.expect!.vendor);
        expect(json.details).toEqual({ blockedBy: fixture.expect!.vendor, kind: fixture.expect!.kind });
      }
      // The second scrape went to the site again: nothing of the first was cached.
      expect(site.hits(`/block/${fixture.file}`)).toBeGreaterThanOrEqual(2);
    });
    expect(await creditsUsed()).toBe(before);
  }, 300_000);

  it('returns the negatives as the pages they are, and bills them', async () => {
    const before = await creditsUsed();
    for (const fixture of ordinary()) {
      const { status, json } = await tabhive.post('/v2/scrape', { url: site.url(`/block/${fixture.file}`) });
      expect({ file: fixture.file, status }).toEqual({ file: fixture.file, status: 200 });
      expect(json.data.metadata.statusCode).toBe(fixture.status);
    }
    expect(await creditsUsed()).toBe(before + ordinary().length);
  }, 300_000);

  it('leaves block pages out of a crawl: failed pages with the code, not documents, not billed', async () => {
    const before = await creditsUsed();
    const { status, urls, errors } = await runJob('crawl', { url: site.url('/'), limit: 100 });
    const expected = [
      site.url('/'),
      site.url('/ok/one.html'),
      site.url('/ok/two.html'),
      ...ordinary().map((fixture) => site.url(`/block/${fixture.file}`)),
    ].sort();
    expect(urls.sort()).toEqual(expected);
    expect(status).toMatchObject({
      status: 'completed',
      completed: expected.length,
      creditsUsed: expected.length,
    });
    const blockedUrls = blocked().map((fixture) => site.url(`/block/${fixture.file}`));
    expect(errors.map((error) => error.url).sort()).toEqual(blockedUrls.sort());
    for (const error of errors) {
      const fixture = blocked().find((each) => site.url(`/block/${each.file}`) === error.url)!;
      expect(error.code).toBe('SCRAPE_SITE_ERROR');
      expect(error.error).toContain(fixture.expect!.vendor);
    }
    expect(await creditsUsed()).toBe(before + expected.length);
  }, 300_000);

  it('leaves block pages out of a batch scrape', async () => {
    const before = await creditsUsed();
    const { status, urls, errors } = await runJob('batch/scrape', {
      urls: [
        site.url('/ok/one.html'),
        site.url('/block/cloudflare-interstitial.html'),
        site.url('/challenge'),
      ],
    });
    expect(urls).toEqual([site.url('/ok/one.html')]);
    expect(status).toMatchObject({ status: 'completed', completed: 1, creditsUsed: 1 });
    expect(errors.map((error) => error.error).join('\n')).toMatch(/Cloudflare challenge page/);
    expect(errors).toHaveLength(2);
    expect(await creditsUsed()).toBe(before + 1);
    // The clickable challenge was never passed: nothing of its page came out.
    expect(JSON.stringify(status)).not.toContain(CLEARED_PAGE_TEXT);
  }, 300_000);
});
