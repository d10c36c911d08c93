import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { LOADING_PLACEHOLDER_WARNING } from '../../../server/scrape/capture/loading-placeholder';
import { startTabhive } from '../../../server/start-tabhive';
import { storeBackends } from '../../helpers/store-backends';

const API_KEY = 'fc-cache-hits-test-key-000001';

/**
 * The scrape cache through real HTTP on loopback, with the real stores and no browser: every page
 * here is plain HTML, which the HTTP fast path fetches. Each article says which version of it the
 * site served, and the site counts its visits, so a test can tell a hit from a fresh capture.
 */
async function startSite() {
  const visits = new Map<string, number>();
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    const visit = (visits.get(pathname) ?? 0) + 1;
    visits.set(pathname, visit);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (pathname.startsWith('/loading')) {
      response.end(
        '<!doctype html><html><head><title>Dashboard</title></head><body><div id="app"><p>Loading…</p></div></body></html>',
      );
      return;
    }
    response.end(
      `<!doctype html><html><head><title>Article</title></head><body><main><h1>Article</h1>` +
        `<p>Version ${visit} of this article, about bees and the flowers they visit in spring.</p>` +
        `<p>A second paragraph, so that the page is an article of its own.</p></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    visits: (pathname: string) => visits.get(pathname) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function startInstance(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-cache-hits-'));
  const tabhive = await startTabhive({
    config: loadConfig({
      PORT: '0',
      BROWSERS: '0',
      DATA_DIR: dataDir,
      API_KEY,
      ALLOW_PRIVATE_NETWORKS: 'true',
      ...env,
    }),
    server: createServer(),
    log: createLog({ quiet: true }),
  });
  return {
    tabhive,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
    async scrape(body: Record<string, unknown>): Promise<any> {
      const response = await fetch(`${tabhive.url}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the signature
      const json = (await response.json()) as any;
      expect(response.status, JSON.stringify(json)).toBe(200);
      return json.data;
    },
    async stored(id: string) {
      const response = await fetch(`${tabhive.url}/v2/scrape/${id}`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      });
      return { status: response.status, json: (await response.json()) as { data?: unknown } };
    },
    async stop() {
      await tabhive.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

let site: Awaited<ReturnType<typeof startSite>>;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => site?.close());

describe.each(storeBackends())('cache hits on the $name store', (backend) => {
  let env: Record<string, string>;
  let a: Awaited<ReturnType<typeof startInstance>>;

  beforeAll(async () => {
    env = await backend.start();
    a = await startInstance(env);
  }, 60_000);
  afterAll(async () => {
    await a?.stop();
    await backend.stop();
  });

  it('answers many callers at once from one capture, each with a result of its own', async () => {
    const url = site.url(`/article/many-${backend.name}`);
    const first = await a.scrape({ url, formats: ['markdown'] });
    expect(first.metadata.cacheState).toBe('miss');
    // Eight callers (the team may run ten scrapes at once), three requests each.
    const callers = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const answers = [];
        for (let n = 0; n < 3; n += 1) answers.push(await a.scrape({ url, formats: ['markdown'] }));
        return answers;
      }),
    );
    const hits = callers.flat();
    expect(new Set(hits.map((hit) => hit.metadata.cacheState))).toEqual(new Set(['hit']));
    expect(new Set(hits.map((hit) => hit.markdown))).toEqual(new Set([first.markdown]));
    expect(site.visits(`/article/many-${backend.name}`)).toBe(1);
    const last = hits.at(-1);
    expect((await a.stored(last.metadata.scrapeId)).json.data).toEqual(last);
  });

  it("goes back to the page when the entry is older than the caller's maxAge, or maxAge is 0", async () => {
    const pathname = `/article/max-age-${backend.name}`;
    await a.scrape({ url: site.url(pathname) });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const older = await a.scrape({ url: site.url(pathname), maxAge: 1_000 });
    expect(older.metadata.cacheState).toBe('miss');
    expect(older.markdown).toContain('Version 2');
    const hit = await a.scrape({ url: site.url(pathname), maxAge: 1_000 });
    expect([hit.metadata.cacheState, hit.markdown]).toEqual(['hit', older.markdown]);
    const fresh = await a.scrape({ url: site.url(pathname), maxAge: 0 });
    expect(fresh.metadata.cacheState).toBeUndefined();
    expect(fresh.markdown).toContain('Version 3');
  });

  it('keeps nothing asked for with storeInCache false', async () => {
    const pathname = `/article/no-store-${backend.name}`;
    await a.scrape({ url: site.url(pathname), storeInCache: false });
    await a.scrape({ url: site.url(pathname), storeInCache: false });
    expect((await a.scrape({ url: site.url(pathname) })).metadata.cacheState).toBe('miss');
    expect(site.visits(pathname)).toBe(3);
  });

  it('warns about a page still loading, and takes it again next time', async () => {
    const pathname = `/loading-${backend.name}`;
    const first = await a.scrape({ url: site.url(pathname) });
    expect(first.warning).toBe(LOADING_PLACEHOLDER_WARNING);
    const second = await a.scrape({ url: site.url(pathname) });
    expect(second.metadata.cacheState).toBe('miss');
    expect(site.visits(pathname)).toBe(2);
  });

  describe.skipIf(backend.name !== 'mongodb')('with a second instance on the same database', () => {
    let b: Awaited<ReturnType<typeof startInstance>>;
    beforeAll(async () => {
      b = await startInstance(env);
    }, 60_000);
    afterAll(async () => b?.stop());

    it("serves the other instance's newer capture", async () => {
      const pathname = '/article/two-instances';
      const url = site.url(pathname);
      await a.scrape({ url });
      expect((await a.scrape({ url })).metadata.cacheState).toBe('hit');
      const fromB = await b.scrape({ url });
      expect(fromB.metadata.cacheState).toBe('hit');
      const newer = await b.scrape({ url, maxAge: 0 });
      expect(newer.markdown).toContain('Version 2');
      const seenByA = await a.scrape({ url });
      expect(seenByA.metadata.cacheState).toBe('hit');
      expect(seenByA.markdown).toBe(newer.markdown);
      expect(site.visits(pathname)).toBe(2);
    });

    it('does not serve an entry deleted from the database', async () => {
      const pathname = '/article/deleted';
      const url = site.url(pathname);
      await a.scrape({ url });
      expect((await a.scrape({ url })).metadata.cacheState).toBe('hit');
      const client = await MongoClient.connect(env.MONGODB_URL as string, {
        serverSelectionTimeoutMS: 5_000,
      });
      try {
        const { deletedCount } = await client
          .db()
          .collection('cache_entries')
          .deleteMany({ url: { $regex: '/article/deleted$' } });
        expect(deletedCount).toBe(1);
      } finally {
        await client.close();
      }
      const after = await a.scrape({ url });
      expect(after.metadata.cacheState).toBe('miss');
      expect(after.markdown).toContain('Version 2');
    });
  });
});
