import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { silentLog } from '../../../server/platform/log/log';
import { cacheWindow, mayWriteCache } from '../../../server/scrape/capture/cache-policy';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createCacheStore } from '../../../server/platform/store/stores/cache-store';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const embedded = useEmbeddedStores();

const version = (marker: string): PageCapture => ({
  url: 'https://news.example.com/story',
  statusCode: 200,
  contentType: 'text/html',
  rawHtml: `<html><body><h1>Story</h1><p>${marker}</p></body></html>`,
  renderedHtml: `<html><body><h1>Story</h1><p>${marker}</p></body></html>`,
});

let pages = 0;
const newUrl = () => `https://news.example.com/story-${(pages += 1)}`;
const request = (url: string, body: Record<string, unknown> = {}) => ScrapeRequestV2.parse({ url, ...body });

/** A cached capture over its own store and clock; `fresh` counts the times the site would be asked. */
function setup() {
  const cachedCapture = createCachedCapture({ cache: createCacheStore(embedded.database), log: silentLog });
  let clock = Date.parse('2030-01-01T00:00:00Z');
  let fresh = 0;
  const run = (scrape: ScrapeRequestV2, capture = version('fresh')) =>
    cachedCapture(
      scrape,
      'team-a',
      async () => {
        fresh += 1;
        return { capture, source: { scope: 'public' as const } };
      },
      () => new Date(clock),
    );
  return { run, fresh: () => fresh, advance: (ms: number) => (clock += ms) };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('cache-only requests (lockdown, minAge)', () => {
  it('serve the cached copy with lockdown, of any age within retention when no maxAge is given', async () => {
    const { run, fresh, advance } = setup();
    const url = newUrl();
    await run(request(url), version('cached'));
    advance(5 * 24 * 60 * 60 * 1000);
    const served = await run(request(url, { lockdown: true }));
    expect([served.cacheState, served.capture.rawHtml.includes('cached')]).toEqual(['hit', true]);
    expect(fresh()).toBe(1);
  });

  it('answer a lockdown miss with SCRAPE_LOCKDOWN_CACHE_MISS and never take the page', async () => {
    const { run, fresh, advance } = setup();
    const url = newUrl();
    const miss = await failureOf(run(request(url, { lockdown: true })));
    expect(miss).toBeInstanceOf(TabhiveError);
    expect(miss).toMatchObject({ kind: 'not-found', code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
    await run(request(url));
    advance(60_000);
    // The copy is a minute old: too old for maxAge 30 s, and lockdown will not refresh it.
    const stale = await failureOf(run(request(url, { lockdown: true, maxAge: 30_000 })));
    expect(stale).toMatchObject({ kind: 'not-found', code: 'SCRAPE_LOCKDOWN_CACHE_MISS' });
    expect((stale as TabhiveError).message).toContain('(at most 30000 ms old)');
    expect(fresh()).toBe(1);
  });

  it('serve with minAge only a copy at least that old, the newest such one', async () => {
    const { run, fresh, advance } = setup();
    const url = newUrl();
    await run(request(url), version('first'));
    advance(10 * 60_000);
    await run(request(url, { maxAge: 0 }), version('second'));
    advance(60_000);
    // `second` is a minute old, `first` eleven minutes.
    const fiveMinutes = await run(request(url, { minAge: 5 * 60_000 }));
    expect([fiveMinutes.cacheState, fiveMinutes.capture.rawHtml.includes('first')]).toEqual(['hit', true]);
    const thirtySeconds = await run(request(url, { minAge: 30_000 }));
    expect(thirtySeconds.capture.rawHtml).toContain('second');
    // An ordinary request still gets the newest copy (the old one read for minAge is not kept in memory as newest).
    expect((await run(request(url))).capture.rawHtml).toContain('second');
    expect(fresh()).toBe(2);
  });

  it('answer a minAge miss with SCRAPE_NO_CACHED_DATA, and combine minAge with maxAge as a window', async () => {
    const { run, fresh, advance } = setup();
    const url = newUrl();
    await run(request(url));
    advance(60_000);
    const tooYoung = await failureOf(run(request(url, { minAge: 120_000 })));
    expect(tooYoung).toMatchObject({ kind: 'not-found', code: 'SCRAPE_NO_CACHED_DATA' });
    expect((tooYoung as TabhiveError).message).toContain('(at least 120000 ms old)');
    expect((await run(request(url, { minAge: 30_000, maxAge: 90_000 }))).cacheState).toBe('hit');
    const outside = await failureOf(run(request(url, { minAge: 10_000, maxAge: 50_000 })));
    expect(outside).toMatchObject({ code: 'SCRAPE_NO_CACHED_DATA' });
    expect((outside as TabhiveError).message).toContain('(at least 10000 ms old and at most 50000 ms old)');
    expect(fresh()).toBe(1);
  });

  it('compute their window from maxAge and minAge', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const url = 'https://a.test/';
    expect(cacheWindow(request(url), now)).toEqual({
      notBefore: new Date(now.getTime() - 2 * 24 * 3_600_000),
    });
    expect(cacheWindow(request(url, { lockdown: true }), now)).toEqual({ notBefore: new Date(0) });
    expect(cacheWindow(request(url, { minAge: 1_000, maxAge: 5_000 }), now)).toEqual({
      notBefore: new Date(now.getTime() - 5_000),
      notAfter: new Date(now.getTime() - 1_000),
    });
  });
});

describe('redactPII and the cache', () => {
  it('reads the cache but never stores the capture of a redacting request', async () => {
    const url = newUrl();
    expect(mayWriteCache(request(url, { redactPII: true }))).toBe(false);
    expect(mayWriteCache(request(url, { redactPII: false }))).toBe(true);
    const { run, fresh } = setup();
    const first = await run(request(url, { redactPII: { entities: ['EMAIL'] } }));
    expect([first.cacheState, first.entryId]).toEqual(['miss', undefined]);
    expect((await run(request(url, { redactPII: true }))).cacheState).toBe('miss');
    await run(request(url));
    expect((await run(request(url, { redactPII: true }))).cacheState).toBe('hit');
    expect(fresh()).toBe(3);
  });
});
