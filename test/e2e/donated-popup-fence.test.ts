import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import { startPairedDonor } from '../helpers/paired-donor';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * H2 (d) of the red-team report: in a person's donated browser, a popup or a download that a task's
 * click starts must not reach a site outside the owner's allowed domains (with the owner's
 * cookies), and nothing of the task may stay open in the person's browser. The allowed site is `localhost`; the site outside the fence
 * is 127.0.0.3, where the owner is logged in too.
 */

let fenced: Server;
let outside: Server;
const outsideHits: Array<{ path: string; cookie: string }> = [];
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;

const outsideUrl = (pathname: string) =>
  `http://127.0.0.3:${(outside.address() as AddressInfo).port}${pathname}`;
const fencedUrl = (pathname: string) =>
  `http://localhost:${(fenced.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  outside = createServer((request: IncomingMessage, response) => {
    outsideHits.push({ path: request.url ?? '', cookie: request.headers.cookie ?? '' });
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Webmail inbox</h1>');
  });
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.3', resolve));
  fenced = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body =
      url.pathname === '/blank-link'
        ? `<h1>Allowed page</h1><a id="a" target="_blank" href="${outsideUrl('/inbox')}">open</a>`
        : url.pathname === '/download-link'
          ? `<h1>Allowed page</h1><a id="a" download="mail.eml" href="${outsideUrl('/inbox-download')}">save</a>`
          : url.pathname === '/open-on-click'
            ? `<h1>Allowed page</h1><button id="a">open</button><script>document.getElementById('a').onclick = () => window.open(${JSON.stringify(outsideUrl('/inbox-open'))});</script>`
            : '<h1>Allowed home</h1>';
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><html><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => fenced.listen(0, '127.0.0.1', resolve));
  // No launched browser: only the donor can take the team's tasks.
  tabhive = await startTestTabhive({ browsers: 0 });

  ({ donor } = await startPairedDonor({
    tabhive,
    donation: { enabled: true, allowedDomains: ['localhost'], maxTabs: 1, allowJavascript: false },
    cookies: [{ name: 'session', value: 'DONOR-WEBMAIL-SESSION', url: outsideUrl('/'), sameSite: 'Lax' }],
  }));
});
afterAll(async () => {
  await donor?.close();
  await tabhive?.stop();
  await new Promise((resolve) => fenced?.close(resolve));
  await new Promise((resolve) => outside?.close(resolve));
});

describe("a donated browser's fence", () => {
  for (const path of ['/blank-link', '/open-on-click', '/download-link']) {
    it(`keeps a popup or download started by a task's click from leaving the allowed domains (${path})`, async () => {
      const tabsBefore = donor.context.pages().length;
      const { status, json } = await tabhive.post('/v2/scrape', {
        url: fencedUrl(path),
        maxAge: 0,
        formats: ['markdown'],
        timeout: 20_000,
        actions: [
          { type: 'click', selector: '#a' },
          { type: 'wait', milliseconds: 1_500 },
        ],
      });
      if (path === '/download-link') {
        // A download is a navigation of the tab: the fence refuses it, and the task says so.
        expect({ status, code: json.code }).toEqual({ status: 403, code: 'URL_BLOCKED' });
      } else {
        expect({ status, error: json.error }).toEqual({ status: 200, error: undefined });
        expect(json.data.markdown).toContain('Allowed page');
      }
      expect(outsideHits).toEqual([]);
      // Nothing of the task is left in the person's browser.
      await waitUntil(
        () => donor.context.pages().length === tabsBefore,
        5_000,
        'the task and its popup to close',
      );
    });
  }
});
