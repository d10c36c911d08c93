import { describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { Collection, Database, StoredDocument } from '../../../server/platform/store/database';
import {
  CACHE_RETENTION_MS,
  PUBLIC_SCOPE,
  createCacheStore,
} from '../../../server/platform/store/stores/cache-store';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/**
 * The memory in front of the cache store: what it may answer without the database, and what
 * makes it step aside. A "shared" database is the embedded one passed off as a MongoDB, with two
 * cache stores on it: two Tabhive instances, each with its own memory.
 */
const embedded = useEmbeddedStores();

const capture = (statusCode: number, marker: string): PageCapture => ({
  url: 'https://site.test/',
  statusCode,
  rawHtml: `<p>${marker}</p>`,
  renderedHtml: `<p>${marker}</p>`,
});
const BASE_MS = Date.now();
const at = (seconds: number) => new Date(BASE_MS + seconds * 1000);
let keys = 0;
const freshKey = () => `key-${(keys += 1)}`;

/** The database with its reads counted, under the kind given (a `mongodb` one is shared). */
function counted(kind: Database['kind']) {
  const reads = { find: 0, count: 0 };
  const database: Database = {
    kind,
    ping: () => embedded.database.ping(),
    isolatesUpdates: async () => true,
    close: async () => undefined,
    collection<T extends StoredDocument>(name: string): Collection<T> {
      const inner = embedded.database.collection<T>(name);
      return {
        ...inner,
        find: (filter, options) => {
          reads.find += 1;
          return inner.find(filter, options);
        },
        countDocuments: (filter) => {
          reads.count += 1;
          return inner.countDocuments(filter);
        },
      };
    },
  };
  return { database, reads };
}

function instance(kind: Database['kind'] = 'embedded', hot: { maxEntries?: number; maxBytes?: number } = {}) {
  const { database, reads } = counted(kind);
  const cache = createCacheStore(database, { hot });
  const put = (key: string, seconds: number, status = 200, scope = PUBLIC_SCOPE) =>
    cache.put({
      key,
      scope,
      url: 'https://site.test',
      capture: capture(status, `${seconds}`),
      now: at(seconds),
    });
  const find = (key: string, { notBefore = at(0), now = at(100), scopes = [PUBLIC_SCOPE, 'team-a'] } = {}) =>
    cache.findFresh({ key, scopes, notBefore, now });
  return { cache, reads, put, find };
}

describe('the scrape cache memory', () => {
  it('answers a hot entry without reading the database', async () => {
    const { put, find, reads } = instance();
    const key = freshKey();
    await put(key, 1);
    for (let round = 0; round < 3; round += 1) expect((await find(key))?.capture.rawHtml).toBe('<p>1</p>');
    expect(reads).toEqual({ find: 0, count: 0 });
  });

  it("never serves an entry older than the caller's maxAge, nor one past retention", async () => {
    const { put, find, reads } = instance();
    const key = freshKey();
    await put(key, 10);
    expect(await find(key, { notBefore: at(11) })).toBeUndefined();
    expect(reads.find).toBe(1);
    const afterRetention = new Date(at(10).getTime() + CACHE_RETENTION_MS);
    expect((await find(key, { now: new Date(afterRetention.getTime() - 1) }))?.capture.rawHtml).toBe(
      '<p>10</p>',
    );
    expect(await find(key, { now: afterRetention })).toBeUndefined();
  });

  it('steps aside for failures, so that three newer failures win as in the database', async () => {
    const { put, find } = instance();
    const key = freshKey();
    await put(key, 1);
    await put(key, 2, 500);
    await put(key, 3, 503);
    expect((await find(key))?.capture.rawHtml).toBe('<p>1</p>');
    await put(key, 4, 404);
    expect((await find(key))?.capture.rawHtml).toBe('<p>4</p>');
    expect((await find(key))?.capture.rawHtml).toBe('<p>4</p>');
    await put(key, 5);
    expect((await find(key))?.capture.rawHtml).toBe('<p>5</p>');
  });

  it('keeps a team’s entries from other teams, and a team-only lookup from public ones', async () => {
    const { put, find } = instance();
    const key = freshKey();
    await put(key, 1, 200, 'team-a');
    expect(await find(key, { scopes: [PUBLIC_SCOPE, 'team-b'] })).toBeUndefined();
    expect((await find(key, { scopes: [PUBLIC_SCOPE, 'team-a'] }))?.scope).toBe('team-a');
    const shared = freshKey();
    await put(shared, 1);
    expect(await find(shared, { scopes: ['team-a'] })).toBeUndefined();
    await put(shared, 2, 200, 'team-a');
    expect((await find(shared))?.capture.rawHtml).toBe('<p>2</p>');
    expect((await find(shared, { scopes: [PUBLIC_SCOPE, 'team-b'] }))?.capture.rawHtml).toBe('<p>1</p>');
  });

  it('forgets what a purge removes', async () => {
    const { cache, put, find } = instance();
    const key = freshKey();
    await put(key, 1);
    await cache.purgeExpired(new Date(at(2).getTime() + CACHE_RETENTION_MS));
    expect(cache.hotSize().entries).toBe(0);
    expect(await find(key)).toBeUndefined();
  });

  it('holds at most its entries and bytes, least recently used out first', async () => {
    const { cache, put, find, reads } = instance('embedded', { maxEntries: 2 });
    const [a, b, c] = [freshKey(), freshKey(), freshKey()];
    await put(a, 1);
    await put(b, 1);
    await find(a);
    await put(c, 1);
    expect(cache.hotSize().entries).toBe(2);
    expect(reads.find).toBe(0);
    expect(await find(b)).toBeDefined();
    expect(reads.find).toBe(1);

    const small = instance('embedded', { maxBytes: 4_000 });
    for (let n = 0; n < 10; n += 1) await small.put(freshKey(), 1);
    expect(small.cache.hotSize().bytes).toBeLessThanOrEqual(4_000);
    expect(small.cache.hotSize().entries).toBeGreaterThan(0);
    expect(small.cache.hotSize().entries).toBeLessThan(10);
  });

  it('returns entries that callers cannot change', async () => {
    const { put, find } = instance();
    const key = freshKey();
    const stored = await put(key, 1);
    const served = await find(key);
    expect(Object.isFrozen(served?.capture)).toBe(true);
    // The caller's own capture object is left as it was.
    expect(Object.isFrozen(stored.capture)).toBe(false);
  });
});

describe('the scrape cache memory on a shared database', () => {
  it('checks with two counts, and no capture read, that a held entry is still the newest', async () => {
    const a = instance('mongodb');
    const key = freshKey();
    await a.put(key, 1);
    expect((await a.find(key))?.capture.rawHtml).toBe('<p>1</p>');
    expect(a.reads).toEqual({ find: 0, count: 2 });
  });

  it('serves a newer capture another instance stored', async () => {
    const a = instance('mongodb');
    const b = instance('mongodb');
    const key = freshKey();
    await a.put(key, 1);
    expect((await a.find(key))?.capture.rawHtml).toBe('<p>1</p>');
    await b.put(key, 2);
    expect((await a.find(key))?.capture.rawHtml).toBe('<p>2</p>');
    // Three failures from the other instance: the site fails now, and the database says so.
    await b.put(key, 3, 500);
    await b.put(key, 4, 500);
    await b.put(key, 5, 500);
    expect((await a.find(key))?.capture.rawHtml).toBe('<p>5</p>');
  });

  it('does not serve an entry deleted behind its back', async () => {
    const a = instance('mongodb');
    const key = freshKey();
    await a.put(key, 1);
    expect(await a.find(key)).toBeDefined();
    await embedded.database.collection('cache_entries').deleteMany({ key });
    expect(await a.find(key)).toBeUndefined();
    expect(a.cache.hotSize().entries).toBe(0);
  });

  it('does not serve an entry another instance purged', async () => {
    const a = instance('mongodb');
    const b = instance('mongodb');
    const key = freshKey();
    await a.put(key, 1);
    // B's clock runs ahead of A's: it purges what A still takes for retained.
    await b.cache.purgeExpired(new Date(at(2).getTime() + CACHE_RETENTION_MS));
    expect(await a.find(key)).toBeUndefined();
  });
});
