import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive } from '../../helpers/start-test-tabhive';

/**
 * A scrape's `timeout` holds on every path, the HTTP fast path included: the whole server as
 * main.ts composes it (no browser: the page is plain HTML, which the fast path serves).
 */

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html><head><title>Quick</title></head><body><h1>Quick page</h1><p>Plain text that needs no browser.</p></body></html>',
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  tabhive = await startTestTabhive({ browsers: 0 });
}, 60_000);

afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('a scrape timeout on the fast path', { timeout: 60_000 }, () => {
  it('answers 408 SCRAPE_TIMEOUT in Firecrawl shape for timeout 1, as Firecrawl does', async () => {
    const answer = await tabhive.post('/v2/scrape', { url: `${siteUrl}/one-ms`, timeout: 1, maxAge: 0 });
    expect(answer).toEqual({
      status: 408,
      json: { success: false, code: 'SCRAPE_TIMEOUT', error: 'Scrape timed out' },
    });
  });

  it('serves the same page within a timeout it can keep', async () => {
    const answer = await tabhive.post('/v2/scrape', {
      url: `${siteUrl}/in-time`,
      timeout: 30_000,
      maxAge: 0,
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data.markdown).toContain('Quick page');
  });

  it('refuses timeout 0 and below in the request, as the v2 schema does', async () => {
    expect((await tabhive.post('/v2/scrape', { url: `${siteUrl}/zero`, timeout: 0 })).status).toBe(400);
  });
});
