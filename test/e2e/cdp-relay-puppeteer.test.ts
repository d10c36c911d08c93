import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * A browser session's cdpUrl end to end with Puppeteer: `puppeteer.connect` through the server's
 * relay and the extension's chrome.debugger drives the session's one tab in a launched Chromium.
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

const COUNTER_PAGE = `<!doctype html><html><head><title>Counter</title></head><body>
<h1>Counter</h1><button id="more">More</button><p id="count">0</p><input id="name">
<a id="next" href="/second">Next</a>
<script>document.getElementById('more').addEventListener('click', () => {
  const count = document.getElementById('count'); count.textContent = String(Number(count.textContent) + 1);
});</script></body></html>`;

const SECOND_PAGE = `<!doctype html><html><head><title>Second</title></head><body>
<p id="where">second page</p></body></html>`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Body = any;

async function call(method: string, path: string, body?: unknown, apiKey = tabhive.apiKey) {
  const response = await fetch(`${tabhive.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

const connect = (cdpUrl: string, apiKey = tabhive.apiKey) =>
  puppeteer.connect({
    browserWSEndpoint: cdpUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
  });

/** The one page a relay client sees. */
async function onlyPage(browser: Browser) {
  const pages = await browser.pages();
  expect(pages).toHaveLength(1);
  const [page] = pages;
  if (page === undefined) throw new Error('no page through the relay');
  return page;
}

beforeAll(async () => {
  site = createServer((request, response) => {
    const page = request.url === '/second' ? SECOND_PAGE : COUNTER_PAGE;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
  otherTeamKey = await addOtherTeam(tabhive);
});

afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe("a browser session's cdpUrl with Puppeteer", () => {
  let session: Body;

  it('drives the session tab with puppeteer.connect', async () => {
    session = (await call('POST', '/v2/browser', { ttl: 300 })).body;
    expect(session.cdpUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v2\/browser\/[^/]+\/cdp$/);
    const browser = await connect(session.cdpUrl);
    try {
      expect(await browser.version()).toMatch(/Chrome\/\d+/);
      const page = await onlyPage(browser);
      const response = await page.goto(siteUrl('/counter'));
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('Counter');
      expect(page.url()).toBe(siteUrl('/counter'));
      expect(await page.evaluate(() => [location.pathname, 6 * 7])).toEqual(['/counter', 42]);
      await page.click('#more');
      await page.click('#more');
      await page.type('#name', 'Ada');
      expect(await page.$eval('#count', (element) => element.textContent)).toBe('2');
      expect(await page.$eval('#name', (element) => (element as HTMLInputElement).value)).toBe('Ada');
      expect(await page.content()).toContain('<h1>Counter</h1>');
      const screenshot = await page.screenshot();
      expect(Buffer.from(screenshot).subarray(1, 4).toString()).toBe('PNG');
      // Puppeteer's default 800×600 viewport is emulated in the tab.
      expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([800, 600]);
      // page.pdf() reads Page.printToPDF's stream, which the relay serves itself.
      const pdf = Buffer.from(await page.pdf());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(500);

      // It is the session's own tab: the API sees what Puppeteer did.
      const read = await call('POST', `/v2/browser/${session.id}/execute`, {
        code: 'document.getElementById("count").textContent',
        language: 'page',
      });
      expect(read.body.result).toBe('2');

      // Nothing beyond that tab.
      await expect(browser.newPage()).rejects.toThrow(/not available/);
      await expect(browser.createBrowserContext()).rejects.toThrow(/not available/);
      await expect(browser.cookies()).rejects.toThrow(/Storage.getCookies is not available/);
      await expect(page.close()).rejects.toThrow(/DELETE \/v2\/browser\//);
      expect(await page.evaluate(() => document.title)).toBe('Counter');
    } finally {
      await browser.disconnect();
    }
  });

  it('connects again after a client disconnects, to the same tab', async () => {
    const browser = await connect(session.cdpUrl);
    try {
      const page = await onlyPage(browser);
      expect(page.url()).toBe(siteUrl('/counter'));
      expect(await page.$eval('#count', (element) => element.textContent)).toBe('2');
      const [navigated] = await Promise.all([page.waitForNavigation(), page.click('#next')]);
      expect(navigated?.status()).toBe(200);
      expect(navigated?.url()).toBe(siteUrl('/second'));
      expect(await page.title()).toBe('Second');
      expect(await page.$eval('#where', (element) => element.textContent)).toBe('second page');
    } finally {
      await browser.disconnect();
    }
  });

  it('refuses request interception, and browser.close() leaves the session running', async () => {
    const browser = await connect(session.cdpUrl);
    const page = await onlyPage(browser);
    await expect(page.setRequestInterception(true)).rejects.toThrow(/Fetch.enable is not available/);
    // Puppeteer's close of a connected browser sends Browser.close, which is refused, and disconnects.
    await browser.close();
    expect(browser.connected).toBe(false);
    const listed = await call('GET', '/v2/browser?status=active');
    expect(listed.body.sessions.map((entry: Body) => entry.id)).toContain(session.id);
    const read = await call('POST', `/v2/browser/${session.id}/execute`, {
      code: 'document.title',
      language: 'page',
    });
    expect(read.body.result).toBe('Second');
  });

  it("refuses another team's key and no key", async () => {
    await expect(connect(session.cdpUrl, otherTeamKey)).rejects.toThrow(/404/);
    await expect(
      puppeteer.connect({ browserWSEndpoint: session.cdpUrl, defaultViewport: null }),
    ).rejects.toThrow(/401/);
  });

  it('disconnects its clients when the session ends', async () => {
    const browser = await connect(session.cdpUrl);
    const disconnected = new Promise<void>((resolve) => browser.once('disconnected', () => resolve()));
    expect((await call('DELETE', `/v2/browser/${session.id}`)).status).toBe(200);
    await disconnected;
    expect(browser.connected).toBe(false);
  });
});
