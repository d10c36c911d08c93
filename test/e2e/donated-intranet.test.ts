import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS_PATH } from '../../shared/api/tabhive/browser-pairing';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import {
  HANDBOOK_TEXT,
  INTRANET_HOST,
  INTRANET_SHORT_HOST,
  startIntranetSite,
} from '../helpers/intranet-site';
import { startPairedDonor } from '../helpers/paired-donor';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';
import { stubLookup } from '../helpers/stub-lookup';

/**
 * Issue 38: a company intranet that only a colleague's browser can reach. The donor's Chromium
 * alone resolves its name (a host resolver rule, as a VPN or the office DNS would), to a private
 * (loopback) address; the server's resolver knows no such name, and the server refuses private
 * networks. Scrape, crawl, map and a monitor check of the intranet go through the donor's browser,
 * robots.txt and sitemaps included; other teams, and the team itself while the browser is
 * offline, get a clear error and never reach the site; a redirect out of the intranet is blocked.
 */

let site: Awaited<ReturnType<typeof startIntranetSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;
let page: Page;
let teamBKey: string;
/** Every name the server looked up. */
let serverLookups: string[];

async function call(
  method: string,
  path: string,
  body?: unknown,
  key?: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${tabhive.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key ?? tabhive.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

async function finishedCrawl(id: string, key?: string) {
  let status:
    { status: number; json: { status: string; data: Array<{ metadata: { url: string } }> } } | undefined;
  await waitUntil(
    async () => {
      status = await call('GET', `/v2/crawl/${id}`, undefined, key);
      return status.json.status !== 'scraping';
    },
    90_000,
    `crawl ${id} to finish`,
  );
  return status!.json;
}

const pathsOf = (urls: string[]) => [...new Set(urls.map((url) => new URL(url).pathname))].sort();
const siteHitsFrom = (userAgent: RegExp) => site.hits.filter((hit) => !userAgent.test(hit.userAgent));

beforeAll(async () => {
  site = await startIntranetSite();
  const dns = stubLookup({});
  serverLookups = dns.calls;
  tabhive = await startTestTabhive({
    browsers: 1,
    env: { ALLOW_PRIVATE_NETWORKS: 'false' },
    lookup: dns.lookup,
  });
  teamBKey = await addOtherTeam(tabhive);
  ({ donor, page } = await startPairedDonor({
    tabhive,
    donation: {
      enabled: true,
      allowedDomains: [INTRANET_HOST, INTRANET_SHORT_HOST],
      maxTabs: 2,
      allowJavascript: false,
    },
    browserArgs: [site.resolverRule],
  }));
}, 60_000);
afterAll(async () => {
  await donor?.close();
  await tabhive?.stop();
  await site?.close();
});

describe("an intranet reached through a colleague's donated browser", () => {
  it('is scraped by the donated browser alone; the server never looks its name up', async () => {
    const { status, json } = await call('POST', '/v2/scrape', { url: site.url('/'), formats: ['markdown'] });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.data.markdown).toContain(HANDBOOK_TEXT);
    // A single-label intranet name the owner allowed goes there too, rather than being a "typo".
    const short = await call('POST', '/v2/scrape', { url: site.url('/a', INTRANET_SHORT_HOST) });
    expect(short.status, JSON.stringify(short.json)).toBe(200);
    expect(short.json.data.markdown).toContain('Alpha team pages.');
    expect(site.hits.every((hit) => /Chrome/.test(hit.userAgent))).toBe(true);
    expect(serverLookups).not.toContain(INTRANET_HOST);
    expect(serverLookups).not.toContain(INTRANET_SHORT_HOST);
  });

  it('blocks a redirect from an intranet page to an address outside the allowed domains', async () => {
    const { status, json } = await call('POST', '/v2/scrape', { url: site.url('/leave'), maxAge: 0 });
    expect(status, JSON.stringify(json)).not.toBe(200);
    expect(json.success).toBe(false);
    expect(site.outsideHits).toEqual([]);
  });

  it('is crawled through the donated browser: links, robots.txt and the sitemap are read there', async () => {
    const before = site.hits.length;
    const started = await call('POST', '/v2/crawl', { url: site.url('/'), limit: 10 });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    const crawl = await finishedCrawl(started.json.id);
    expect(crawl.status).toBe('completed');
    // /c only the sitemap names; /private robots.txt disallows.
    expect(pathsOf(crawl.data.map((document) => document.metadata.url))).toEqual(['/', '/a', '/b', '/c']);
    const crawlHits = site.hits.slice(before);
    expect(crawlHits.map((hit) => hit.path)).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap.xml']));
    expect(crawlHits.map((hit) => hit.path)).not.toContain('/private');
    expect(siteHitsFrom(/Chrome/)).toEqual([]);
    expect(serverLookups).not.toContain(INTRANET_HOST);
  });

  it("is mapped from the browser's reading and the team's own index", async () => {
    const { status, json } = await call('POST', '/v2/map', { url: site.url('/') });
    expect(status, JSON.stringify(json)).toBe(200);
    const urls = (json.links as Array<string | { url: string }>).map((link) =>
      typeof link === 'string' ? link : link.url,
    );
    expect(pathsOf(urls)).toEqual(expect.arrayContaining(['/', '/a', '/b', '/c']));
    expect(siteHitsFrom(/Chrome/)).toEqual([]);
  });

  it('is watched by a monitor whose checks run in the donated browser', async () => {
    const created = await call('POST', '/v2/monitor', {
      name: 'intranet',
      schedule: { text: 'hourly', timezone: 'UTC' },
      targets: [{ type: 'scrape', urls: [site.url('/a')] }],
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = created.json.data.id as string;
    const run = await call('POST', `/v2/monitor/${id}/run`, {});
    expect(run.status, JSON.stringify(run.json)).toBe(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see call()
    let check: any;
    await waitUntil(
      async () => {
        check = (await call('GET', `/v2/monitor/${id}/checks/${run.json.data.id}`)).json.data;
        return check?.status !== 'running';
      },
      60_000,
      'the check to finish',
    );
    expect(check.pages).toEqual([expect.objectContaining({ url: site.url('/a'), status: 'new' })]);
    await call('DELETE', `/v2/monitor/${id}`);
  });

  it("is not another team's: its scrape, crawl and map never reach the site", async () => {
    // Until now the server never looked the name up: every request so far was the team's.
    expect(serverLookups).not.toContain(INTRANET_HOST);
    const before = site.hits.length;
    const scrape = await call('POST', '/v2/scrape', { url: site.url('/'), maxAge: 0 }, teamBKey);
    expect(scrape.status).not.toBe(200);
    expect(JSON.stringify(scrape.json)).not.toContain(HANDBOOK_TEXT);
    // Team B has no browser that allows the host: to it, the name simply does not resolve.
    expect(scrape.json.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    const map = await call('POST', '/v2/map', { url: site.url('/') }, teamBKey);
    expect(map.status).not.toBe(200);
    const started = await call('POST', '/v2/crawl', { url: site.url('/'), limit: 5 }, teamBKey);
    if (started.status === 200) {
      const crawl = await finishedCrawl(started.json.id, teamBKey);
      expect(crawl.data).toEqual([]);
    }
    expect(site.hits.length).toBe(before);
  });

  it('answers with the browser and its state while it is offline, and never a DNS error', async () => {
    const { json: listed } = await call('GET', BROWSERS_PATH);
    const label = listed.browsers[0].label as string;
    await page.close();
    await donor.close();
    await waitUntil(() => tabhive.tabhive.hub.connectedBrowsers() === 1, 10_000, 'the donor to leave');
    const before = site.hits.length;
    const lookupsBefore = serverLookups.length;

    const scrape = await call('POST', '/v2/scrape', { url: site.url('/'), maxAge: 0 });
    expect(scrape.status).toBe(503);
    expect(scrape.json).toMatchObject({ success: false, code: 'DONATED_BROWSER_UNAVAILABLE' });
    expect(scrape.json.error).toContain(`donated browser "${label}", which is offline`);
    const map = await call('POST', '/v2/map', { url: site.url('/') });
    expect(map.status).toBe(503);
    expect(map.json.code).toBe('DONATED_BROWSER_UNAVAILABLE');

    expect(site.hits.length).toBe(before);
    expect(serverLookups.slice(lookupsBefore)).not.toContain(INTRANET_HOST);
  });
});
