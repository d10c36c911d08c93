import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import { silentLog } from '../../../server/platform/log/log';
import { cacheKey } from '../../../server/scrape/capture/cache-key';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createCacheStore, type CacheStore } from '../../../server/platform/store/stores/cache-store';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const embedded = useEmbeddedStores();

const article = (marker: string): PageCapture => ({
  url: 'https://news.example.com/story',
  statusCode: 200,
  contentType: 'text/html',
  rawHtml: `<html><body><h1>Story</h1><p>${marker}</p></body></html>`,
  renderedHtml: `<html><body><h1>Story</h1><p>${marker}</p></body></html>`,
});
const placeholder: PageCapture = {
  url: 'https://app.example.com/',
  statusCode: 200,
  contentType: 'text/html',
  rawHtml: '<html><body><div id="root"></div><script src="/main.js"></script></body></html>',
  renderedHtml: '<html><body><div id="root"><p>Loading…</p></div></body></html>',
};

let pages = 0;
const request = (body: Record<string, unknown> = {}) =>
  ScrapeRequestV2.parse({ url: `https://news.example.com/story-${(pages += 1)}`, ...body });
const again = (first: ScrapeRequestV2, body: Record<string, unknown> = {}) =>
  ScrapeRequestV2.parse({ url: first.url.raw, ...body });

/** A cached capture over its own cache store, with the store's calls counted. */
function setup() {
  const store = createCacheStore(embedded.database);
  const calls = { findFresh: 0, put: 0, fresh: 0 };
  const cache: CacheStore = {
    ...store,
    findFresh: (query) => {
      calls.findFresh += 1;
      return store.findFresh(query);
    },
    put: (entry) => {
      calls.put += 1;
      return store.put(entry);
    },
  };
  const cachedCapture = createCachedCapture({ cache, log: silentLog });
  let clock = Date.now();
  const run = (scrape: ScrapeRequestV2, capture = article('first')) =>
    cachedCapture(
      scrape,
      'team-a',
      async () => {
        calls.fresh += 1;
        return { capture, source: { scope: 'public' as const } };
      },
      () => new Date(clock),
    );
  return { store, calls, run, advance: (ms: number) => (clock += ms) };
}

describe('the cached capture in front of the memory', () => {
  it('serves a hot entry again and again', async () => {
    const { run, calls, store } = setup();
    const first = request();
    expect((await run(first)).cacheState).toBe('miss');
    for (let n = 0; n < 3; n += 1) expect((await run(again(first))).cacheState).toBe('hit');
    expect(calls.fresh).toBe(1);
    expect(store.hotSize().entries).toBe(1);
  });

  it("never serves an entry older than the caller's maxAge", async () => {
    const { run, calls, advance } = setup();
    const first = request();
    await run(first);
    advance(60_000);
    const older = await run(again(first, { maxAge: 30_000 }), article('second'));
    expect(older.cacheState).toBe('miss');
    expect(older.capture.rawHtml).toContain('second');
    expect(calls.fresh).toBe(2);
    // The newer capture is what the memory holds now.
    const newer = await run(again(first, { maxAge: 30_000 }));
    expect([newer.cacheState, newer.capture.rawHtml.includes('second')]).toEqual(['hit', true]);
  });

  it('never reads with maxAge 0, and then reports no cacheState', async () => {
    const { run, calls } = setup();
    const first = request();
    await run(first);
    const reads = calls.findFresh;
    const fresh = await run(again(first, { maxAge: 0 }));
    expect(fresh.cacheState).toBeUndefined();
    expect(calls.findFresh).toBe(reads);
    expect(calls.fresh).toBe(2);
  });

  it('never writes with storeInCache false, in memory or in the database', async () => {
    const { run, calls, store } = setup();
    const first = request({ storeInCache: false });
    expect((await run(first)).cacheState).toBe('miss');
    expect((await run(again(first, { storeInCache: false }))).cacheState).toBe('miss');
    expect((await run(again(first))).cacheState).toBe('miss');
    expect(calls.put).toBe(1);
    expect(calls.fresh).toBe(3);
    expect(store.hotSize().entries).toBe(1);
  });

  it('does not cache a loading placeholder, and says what it is', async () => {
    const { run, calls, store } = setup();
    const first = request();
    const outcome = await run(first, placeholder);
    expect(outcome).toMatchObject({ cacheState: 'miss', placeholder: true });
    expect(outcome.entryId).toBeUndefined();
    expect((await run(again(first), placeholder)).cacheState).toBe('miss');
    expect([calls.put, calls.fresh, store.hotSize().entries]).toEqual([0, 2, 0]);
    expect((await run(again(first), article('real'))).placeholder).toBe(false);
    expect((await run(again(first))).cacheState).toBe('hit');
  });

  it('flags a placeholder stored before the rule, when it is served', async () => {
    const { run, store } = setup();
    const first = request();
    await store.put({
      key: cacheKey(first),
      scope: 'public',
      url: 'u',
      capture: placeholder,
      now: new Date(),
    });
    const served = await run(again(first));
    expect(served).toMatchObject({ cacheState: 'hit', placeholder: true });
  });

  it('never serves or stores a block page, even one stored before they were recognised', async () => {
    const { run, store, calls } = setup();
    const challenge: PageCapture = {
      ...article('x'),
      statusCode: 403,
      responseHeaders: { 'cf-mitigated': 'challenge' },
    };
    const first = request();
    await store.put({ key: cacheKey(first), scope: 'public', url: 'u', capture: challenge, now: new Date() });
    const taken = await run(again(first), article('real'));
    expect(taken).toMatchObject({ cacheState: 'miss' });
    expect(taken.capture.rawHtml).toContain('real');
    expect(calls.fresh).toBe(1);

    // A block page handed back by a fresh capture is not kept either.
    const second = request();
    const putsBefore = calls.put;
    await run(second, challenge);
    expect(calls.put).toBe(putsBefore);
  });
});
