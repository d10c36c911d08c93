import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../extension/ui/ui-messages';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import { startPairedDonor } from '../helpers/paired-donor';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * A donated browser's domain fence against what a page on an allowed domain makes the task's tab
 * load elsewhere (red-team findings C2, donor variant, and L10). One loopback server answers as
 * two sites: `localhost`, the one domain the donor allows, and `127.0.0.1`, where the donor is
 * logged in to something of their own (their webmail, say) and which the fence keeps tasks out of.
 */

/** Not a PDF, though the allowed site says it is. */
const FAKE_PDF_TEXT = 'NOT-A-PDF-BUT-WHAT-THE-TAB-GOT';
const WEBMAIL_COOKIE = { name: 'webmail_session', value: 'DONOR-WEBMAIL-SESSION' };
const WEBMAIL_TEXT = 'Inbox of the donor: 3 unread messages';

/** What the test calls inside extension pages: run there by Playwright, only typed here. */
declare const chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } };

interface Hit {
  host: string;
  path: string;
  headers: IncomingHttpHeaders;
}

async function startTwoSites() {
  const hits: Hit[] = [];
  let port = 0;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://sites');
    hits.push({ host: request.headers.host ?? '', path: url.pathname, headers: request.headers });
    const html = (body: string) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>T</title>${body}`);
    switch (url.pathname) {
      case '/pdf':
        // The tab's document request gets a "PDF" that is not one; the re-fetch the extension
        // used to make after such an answer (not a document request) was sent off the fence.
        if (request.headers['sec-fetch-dest'] === 'document') {
          response
            .writeHead(200, { 'content-type': 'application/pdf' })
            .end(`${' '.repeat(2000)}${FAKE_PDF_TEXT}`);
        } else {
          response.writeHead(302, { location: `http://127.0.0.1:${port}/webmail` }).end();
        }
        return;
      case '/framer':
        html(
          '<h1>A page on an allowed domain</h1>' +
            `<iframe src="http://localhost:${port}/inner"></iframe>` +
            `<iframe src="http://127.0.0.1:${port}/webmail"></iframe>`,
        );
        return;
      case '/inner':
        html('<p>Framed within the fence</p>');
        return;
      case '/webmail':
        html(
          (request.headers.cookie ?? '').includes(`${WEBMAIL_COOKIE.name}=${WEBMAIL_COOKIE.value}`)
            ? `<p>${WEBMAIL_TEXT}</p>`
            : '<p>Please log in</p>',
        );
        return;
      default:
        response.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ({ port } = server.address() as AddressInfo);
  return {
    hits,
    url: (host: 'localhost' | '127.0.0.1', pathname: string) => `http://${host}:${port}${pathname}`,
    /** Requests that reached the site outside the fence. */
    offFence: () => hits.filter((hit) => hit.host.startsWith('127.0.0.1')),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let sites: Awaited<ReturnType<typeof startTwoSites>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;
/** An extension page of the donor's browser, standing in for the options page. */
let page: Page;

const ask = <T>(request: object): Promise<T> =>
  page.evaluate((message) => chrome.runtime.sendMessage(message), request) as Promise<T>;
const activityFor = async (url: string) =>
  (await ask<{ entries: ActivityEntry[] }>({ type: 'getActivity' })).entries.filter(
    (entry) => entry.url === url,
  );

beforeAll(async () => {
  sites = await startTwoSites();
  tabhive = await startTestTabhive({ browsers: 1 });
  // Connected before the first task, which would otherwise go to the pool browser.
  ({ donor, page } = await startPairedDonor({
    tabhive,
    donation: { enabled: true, allowedDomains: ['localhost'], maxTabs: 2, allowJavascript: false },
    cookies: [{ ...WEBMAIL_COOKIE, url: sites.url('127.0.0.1', '/'), httpOnly: true, sameSite: 'Lax' }],
  }));
});
afterAll(async () => {
  await donor?.close();
  await tabhive?.stop();
  await sites?.close();
});
beforeEach(() => {
  sites.hits.length = 0;
});

describe("a donated browser's fence", () => {
  it('keeps a PDF on an allowed domain from fetching anything off the fence with the donor’s login', async () => {
    const url = sites.url('localhost', '/pdf');
    const { status, json } = await tabhive.post('/v2/scrape', {
      url,
      parsers: [],
      formats: ['markdown'],
      maxAge: 0,
    });
    expect(status).toBe(200);
    const bytes = Buffer.from(String(json.data.markdown), 'base64').toString('latin1');
    expect(bytes).toContain(FAKE_PDF_TEXT);
    expect(bytes).not.toContain(WEBMAIL_TEXT);
    expect(sites.offFence()).toEqual([]);
    // The donor ran it, with its owner's cookies at hand (logged as the result goes out).
    await waitUntil(async () => (await activityFor(url)).length > 0, 5_000, 'the activity log entry');
    expect(await activityFor(url)).toEqual([expect.objectContaining({ outcome: 'ok' })]);
  });

  it('does not load an off-fence iframe, and loads one within the fence', async () => {
    const url = sites.url('localhost', '/framer');
    const { status, json } = await tabhive.post('/v2/scrape', {
      url,
      formats: ['markdown', 'rawHtml'],
      waitFor: 500,
      maxAge: 0,
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('A page on an allowed domain');
    expect(JSON.stringify(json)).not.toContain(WEBMAIL_TEXT);
    expect(sites.hits.some((hit) => hit.host.startsWith('localhost') && hit.path === '/inner')).toBe(true);
    expect(sites.offFence()).toEqual([]);
    await waitUntil(async () => (await activityFor(url)).length > 0, 5_000, 'the activity log entry');
    expect(await activityFor(url)).toEqual([expect.objectContaining({ outcome: 'ok' })]);
  });
});
