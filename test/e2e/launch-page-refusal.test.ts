import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '../../shared/extension-identity';
import { ATTACKER_ADDRESS, ATTACKER_ONLY_ENV, startAttackerSite } from '../helpers/attacker-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * A page that sends its task's tab to the extension's own start page (launch.html, C1 of the
 * red-team report): the browser refuses the page, and the task says so at once with URL_BLOCKED,
 * rather than trying to capture a page no web content may open, failing, and being retried into a
 * 500. The attacker's page is on 127.0.0.2, the one private address the operator allowed.
 */

const LAUNCH_PAGE = `chrome-extension://${EXTENSION_ID}/launch.html#server=ws%3A%2F%2F${ATTACKER_ADDRESS}%3A9%2Fbrowser-hub&token=evil`;

let attacker: Awaited<ReturnType<typeof startAttackerSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  attacker = await startAttackerSite('Prize', ({ url, page }) => {
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
  tabhive = await startTestTabhive({ browsers: 1, env: ATTACKER_ONLY_ENV });
});
afterAll(async () => {
  await tabhive?.stop();
  await attacker?.close();
});

function expectRefused(response: { status: number; json: unknown }) {
  expect(response.json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
  expect(response.status).toBe(403);
}

describe('a task whose page goes to the extension start page', () => {
  it('is refused when a script navigates the tab', async () => {
    expectRefused(
      await tabhive.post('/v2/scrape', { url: attacker.url('/navigate'), maxAge: 0, waitFor: 1_500 }),
    );
  });

  it("is refused when the caller's executeJavascript navigates the tab", async () => {
    expectRefused(
      await tabhive.post('/v2/scrape', {
        url: attacker.url('/'),
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
        url: attacker.url('/link'),
        maxAge: 0,
        actions: [
          { type: 'click', selector: '#a' },
          { type: 'wait', milliseconds: 1_500 },
        ],
      }),
    );
  });

  it('leaves the browser serving its own server', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', { url: attacker.url('/'), maxAge: 0 });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Attacker home');
  });
});
