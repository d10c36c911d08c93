import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import Firecrawl from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startCrawlSite();
  tabhive = await startTestTabhive({ browsers: 1 });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

/** A loopback port nothing listens on: taken from the OS, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a crawl, waits for it to end, and returns the start answer and the final status. */
async function crawl(version: 'v1' | 'v2', body: Record<string, unknown>) {
  const started = await tabhive.post(`/${version}/crawl`, body);
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  const id = started.json.id as string;
  await waitUntil(
    async () => (await tabhive.get(`/${version}/crawl/${id}`)).json.status !== 'scraping',
    60_000,
    'the crawl to end',
  );
  return { id, started: started.json, status: (await tabhive.get(`/${version}/crawl/${id}`)).json };
}

describe('crawl warnings', () => {
  it('says a crawl from a page URL covers only that path, at the start and in every status read', async () => {
    const start = site.url('/docs/page-1.html');
    const { id, started, status } = await crawl('v2', { url: start, sitemap: 'skip' });
    const expected =
      'The crawl starts at a page (/docs/page-1.html), so it only follows URLs whose path begins with ' +
      '/docs/page-1.html: in effect that page alone. To crawl the pages it links to, set crawlEntireDomain: ' +
      `true, or start at its folder (${site.url('/docs/')}) or the site root (${site.url('/')}).`;
    expect(started.warning).toBe(expected);
    // What the warning explains: one page, though page-1 links to /docs/, page-2 and /.
    expect(status).toMatchObject({ status: 'completed', total: 1, completed: 1, warning: expected });
    expect(status.data.map((doc: { metadata: { sourceURL: string } }) => doc.metadata.sourceURL)).toEqual([
      start,
    ]);

    // The SDK's start call succeeds unchanged with the extra field.
    const firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const job = await firecrawl.getCrawlStatus(id);
    expect(job.status).toBe('completed');

    // v1 says the same.
    const v1 = await crawl('v1', { url: start, ignoreSitemap: true });
    expect(v1.started.warning).toBe(expected);
    expect(v1.status.warning).toBe(expected);
  });

  it('stays quiet for a folder start, the root, and a page start with crawlEntireDomain', async () => {
    const folder = await crawl('v2', { url: site.url('/docs/'), sitemap: 'skip', limit: 3 });
    expect(folder.started).not.toHaveProperty('warning');
    expect(folder.status).not.toHaveProperty('warning');
    expect(folder.status.completed).toBe(3);

    const entire = await crawl('v2', {
      url: site.url('/docs/page-1.html'),
      crawlEntireDomain: true,
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
    });
    expect(entire.started).not.toHaveProperty('warning');
    expect(entire.status).not.toHaveProperty('warning');
    expect(entire.status.completed).toBe(4);
  });

  it('says why a crawl whose start URL was unreachable completed with no pages', async () => {
    const start = `http://127.0.0.1:${await closedPort()}/`;
    const { id, started, status } = await crawl('v2', { url: start, sitemap: 'skip' });
    expect(started).not.toHaveProperty('warning');
    expect(status).toMatchObject({ status: 'completed', total: 0, completed: 0, data: [] });
    const { json: errors } = await tabhive.get(`/v2/crawl/${id}/errors`);
    expect(errors.errors).toHaveLength(1);
    const reason =
      errors.errors[0].code === undefined
        ? errors.errors[0].error
        : `${errors.errors[0].code}: ${errors.errors[0].error}`;
    expect(status.warning).toBe(
      `The crawl found no pages: its start URL ${start} could not be fetched (${reason}). ` +
        `Check the address and that the site is up; /v2/crawl/${id}/errors lists the failure.`,
    );

    const v1 = await crawl('v1', { url: start, ignoreSitemap: true });
    expect(v1.status.warning).toMatch(
      new RegExp(`could not be fetched .*/v1/crawl/${v1.id}/errors lists the failure`),
    );
  });

  it('says a start page that fails the crawl filters is why nothing was kept', async () => {
    const { id, status } = await crawl('v2', {
      url: site.url('/'),
      includePaths: ['^/nothing$'],
      sitemap: 'skip',
    });
    expect(status).toMatchObject({ status: 'completed', completed: 0 });
    expect(status.warning).toBe(
      `The crawl kept no pages: its start URL ${site.url('/')} does not pass the crawl's filters ` +
        `(includePaths, excludePaths, robots.txt). See /v2/crawl/${id}/errors.`,
    );
  });
});
