import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import { startPairedDonor } from '../helpers/paired-donor';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * N9 of the red-team report: on a person's donated browser, a popup opened from a sandboxed
 * (opaque-origin) frame of an allowed page must not load a site outside the owner's allowed
 * domains with the owner's cookie. An opaque initiator matches no initiator condition, so the
 * fence must not depend on one. The allowed site is `localhost`; outside the fence is 127.0.0.3,
 * where the owner is logged in.
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

/** A sandboxed frame whose whole area is a link (or a button) opening the site outside the fence. */
function sandboxedFrame(inner: string, sandbox: string): string {
  const srcdoc = `<style>html,body,a,button{margin:0;width:100%;height:100%;display:block}</style>${inner}`;
  return `<h1>Allowed page</h1><iframe id="a" sandbox="${sandbox}" style="width:400px;height:300px;border:0" srcdoc="${srcdoc.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"></iframe>`;
}

beforeAll(async () => {
  outside = createServer((request: IncomingMessage, response) => {
    outsideHits.push({ path: request.url ?? '', cookie: request.headers.cookie ?? '' });
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Webmail inbox</h1>');
  });
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.3', resolve));
  fenced = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body =
      url.pathname === '/sandboxed-link'
        ? sandboxedFrame(
            `<a target="_blank" href="${outsideUrl('/inbox?sandbox-popup=1')}">open</a>`,
            'allow-popups',
          )
        : url.pathname === '/sandboxed-open'
          ? sandboxedFrame(
              `<button onclick="window.open('${outsideUrl('/inbox?sandbox-open=1')}')">open</button>`,
              'allow-popups allow-scripts',
            )
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
  for (const path of ['/sandboxed-link', '/sandboxed-open']) {
    it(`keeps a popup from a sandboxed frame inside the allowed domains (${path})`, async () => {
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
      expect({ status, error: json.error }).toEqual({ status: 200, error: undefined });
      expect(json.data.markdown).toContain('Allowed page');
      expect(outsideHits).toEqual([]);
      await waitUntil(
        () => donor.context.pages().length === tabsBefore,
        5_000,
        'the task and its popup to close',
      );
    });
  }

  it('leaves the person free to browse outside the fence once the task is done', async () => {
    const page = await donor.context.newPage();
    try {
      await page.goto(outsideUrl('/own-browsing'));
      expect(await page.textContent('h1')).toBe('Webmail inbox');
    } finally {
      await page.close();
    }
    expect(outsideHits.map((hit) => hit.path)).toContain('/own-browsing');
    outsideHits.length = 0;
  });
});
