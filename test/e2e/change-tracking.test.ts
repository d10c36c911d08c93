import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/** A price list whose content the test changes between scrapes; 404 once removed. */
const page = { price: '4 EUR', removed: false };
let server: Server;
let origin: string;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (page.removed) {
      response
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Gone</title><p>No such page.</p>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><html lang="en"><title>Prices</title><main><h1>Prices</h1>` +
        `<p>Honey jars for the spring market.</p><dl><dt>Mug</dt><dd>${page.price}</dd><dt>Teapot</dt><dd>20 EUR</dd></dl>` +
        `<p>Request: ${request.url}</p></main></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tabhive = await startTestTabhive();
});
afterAll(async () => {
  await tabhive?.stop();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

const schema = { type: 'object', properties: { mug: { type: 'string' }, teapot: { type: 'string' } } };
const track = (url: string, options: Record<string, unknown> = {}) =>
  tabhive.post('/v2/scrape', {
    url,
    formats: ['markdown', { type: 'changeTracking', modes: ['git-diff', 'json'], schema, ...options }],
  });

describe('change tracking', () => {
  it('goes new → same → changed → removed, with a git diff and per-key json changes', async () => {
    const url = `${origin}/prices`;
    const first = await track(url);
    expect(first.status).toBe(200);
    expect(first.json.data.changeTracking).toEqual({
      previousScrapeAt: null,
      changeStatus: 'new',
      visibility: 'visible',
    });
    // Change tracking never reads or writes the cache.
    expect(first.json.data.metadata.cacheState).toBeUndefined();
    expect(first.json.data.metadata.creditsUsed).toBe(5);

    const second = await track(url);
    expect(second.json.data.changeTracking).toMatchObject({ changeStatus: 'same', visibility: 'visible' });
    expect(Date.parse(second.json.data.changeTracking.previousScrapeAt)).toBeLessThanOrEqual(Date.now());
    expect(second.json.data.changeTracking.diff).toBeUndefined();

    page.price = '5 EUR';
    const third = await track(url);
    const tracking = third.json.data.changeTracking;
    expect(tracking.changeStatus).toBe('changed');
    // The previous version is the second scrape, which came after the first one's snapshot.
    expect(Date.parse(tracking.previousScrapeAt)).toBeGreaterThan(
      Date.parse(second.json.data.changeTracking.previousScrapeAt),
    );
    expect(tracking.diff.text).toContain('--- a/page.md');
    expect(tracking.diff.text).toMatch(/^-\s*4 EUR$/m);
    expect(tracking.diff.text).toMatch(/^\+\s*5 EUR$/m);
    expect(tracking.diff.json.files[0].chunks[0].changes).toContainEqual(
      expect.objectContaining({ type: 'add', add: true, content: expect.stringContaining('5 EUR') }),
    );
    expect(tracking.json).toEqual({ mug: { previous: '4 EUR', current: '5 EUR' } });

    page.removed = true;
    const fourth = await track(url);
    expect(fourth.json.data.metadata.statusCode).toBe(404);
    expect(fourth.json.data.changeTracking.changeStatus).toBe('removed');
    page.removed = false;
  });

  it('keeps a separate history per tag, and per URL as given', async () => {
    const url = `${origin}/tagged`;
    expect((await track(url, { tag: 'daily' })).json.data.changeTracking.changeStatus).toBe('new');
    expect((await track(url, { tag: 'daily' })).json.data.changeTracking.changeStatus).toBe('same');
    expect((await track(url, { tag: 'weekly' })).json.data.changeTracking.changeStatus).toBe('new');
    expect((await track(url)).json.data.changeTracking.changeStatus).toBe('new');
    expect((await track(`${url}?other`)).json.data.changeTracking.changeStatus).toBe('new');
  });

  it('leaves out the diff when only git-diff is asked, and bills 1 credit', async () => {
    const url = `${origin}/git-only`;
    const body = { url, formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] };
    await tabhive.post('/v2/scrape', body);
    const again = await tabhive.post('/v2/scrape', body);
    expect(again.json.data.changeTracking.changeStatus).toBe('same');
    expect(again.json.data.changeTracking.json).toBeUndefined();
    expect(again.json.data.metadata.creditsUsed).toBe(1);
  });
});
