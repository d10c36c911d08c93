import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEgress, type Egress } from '../../../server/platform/egress/create-egress';
import { createJobRunner, type JobRunner } from '../../../server/products/jobs/create-job-runner';
import { createJobService } from '../../../server/products/jobs/create-job-service';
import { crawlSpecFromV2 } from '../../../server/products/jobs/job-spec';
import { silentLog } from '../../../server/platform/log/log';
import type { Scraper } from '../../../server/scrape/types/scraper';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { waitUntil } from '../../helpers/start-test-tabhive';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/**
 * A site on loopback under three names (`*.localhost` resolves to loopback): its sitemap lists a
 * page of its own, one under an excluded path, one on a subdomain and one on another site. Every
 * request is logged with the name it was made to.
 */
async function startSitemapSite() {
  const hits: string[] = [];
  let port = 0;
  const server = createServer((request, response) => {
    const host = (request.headers.host ?? '').split(':')[0] ?? '';
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.push(`${host}${path}`);
    if (host === 'site.localhost' && path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('User-agent: *\nAllow: /\n');
      return;
    }
    if (host === 'site.localhost' && path === '/sitemap.xml') {
      const entries = [
        `http://site.localhost:${port}/listed.html`,
        `http://site.localhost:${port}/excluded/listed.html`,
        `http://blog.site.localhost:${port}/sub-from-sitemap.html`,
        `http://elsewhere.localhost:${port}/offsite-from-sitemap.html`,
      ];
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries
          .map((entry) => `<url><loc>${entry}</loc></url>`)
          .join('')}</urlset>`,
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><body>page</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    hits,
    url: (path: string, host = 'site.localhost') => `http://${host}:${port}${path}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const env = useEmbeddedStores();
let site: Awaited<ReturnType<typeof startSitemapSite>>;
let egress: Egress;
const runners: JobRunner[] = [];

beforeAll(async () => {
  site = await startSitemapSite();
  egress = createEgress({ allowPrivateNetworks: true });
});
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
});
afterAll(async () => {
  await egress?.close();
  await site?.close();
});

/** Crawls the site's home page with `options` and returns the URLs the scraper was given. */
async function crawlScrapes(options: Record<string, unknown>): Promise<string[]> {
  const scraped: string[] = [];
  // The pages themselves do not matter here: only which URLs the crawl takes from the sitemap.
  const scraper: Scraper = {
    async scrape(request, { scrapeId, onCapture }) {
      const url = request.url.url;
      scraped.push(url);
      const rawHtml = '<html><body>no links</body></html>';
      onCapture?.({ url, statusCode: 200, rawHtml, renderedHtml: rawHtml }, []);
      return {
        markdown: url,
        metadata: {
          sourceURL: url,
          url,
          statusCode: 200,
          scrapeId: scrapeId ?? '',
          creditsUsed: 1,
          proxyUsed: 'basic',
        },
      };
    },
  };
  const runner = createJobRunner({
    stores: env.stores,
    scraper,
    egress,
    log: silentLog,
    capacity: () => 2,
  });
  runners.push(runner);
  runner.start();
  const jobs = createJobService({ stores: env.stores });
  const id = await jobs.startCrawl(
    'team',
    crawlSpecFromV2(CrawlRequestV2.parse({ url: site.url('/'), excludePaths: ['^/excluded/'], ...options })),
  );
  await waitUntil(async () => (await env.stores.jobs.get(id))?.status === 'completed', 15_000, 'the crawl');
  // The next crawl gets a runner (and a record of scrapes) of its own.
  await runner.stop();
  return scraped.map((url) => url.replace(/:\d+\//, '/')).sort();
}

describe('a crawl reading the sitemap', () => {
  it('keeps to the start host, as it does with links: no sitemap entry of another site or a subdomain', async () => {
    site.hits.length = 0;
    expect(await crawlScrapes({})).toEqual(['http://site.localhost/', 'http://site.localhost/listed.html']);
    // Nothing was even asked of the other names: not their pages, not their robots.txt.
    expect(site.hits.filter((hit) => !hit.startsWith('site.localhost/'))).toEqual([]);
  });

  it('takes a subdomain entry with allowSubdomains, any site’s with allowExternalLinks', async () => {
    expect(await crawlScrapes({ allowSubdomains: true })).toEqual([
      'http://blog.site.localhost/sub-from-sitemap.html',
      'http://site.localhost/',
      'http://site.localhost/listed.html',
    ]);
    expect(await crawlScrapes({ allowExternalLinks: true })).toEqual([
      'http://blog.site.localhost/sub-from-sitemap.html',
      'http://elsewhere.localhost/offsite-from-sitemap.html',
      'http://site.localhost/',
      'http://site.localhost/listed.html',
    ]);
  });
});
