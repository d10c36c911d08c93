import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFencedDonor, type FencedDonor } from '../helpers/fenced-donor';
import { waitUntil } from '../helpers/start-test-tabhive';

/**
 * H2 (d) of the red-team report: in a person's donated browser, a popup or a download that a task's
 * click starts must not reach a site outside the owner's allowed domains (with the owner's
 * cookies), and nothing of the task may stay open in the person's browser. The allowed site is `localhost`; the site outside the fence
 * is 127.0.0.3, where the owner is logged in too.
 */

let fence: FencedDonor;

beforeAll(async () => {
  fence = await startFencedDonor((pathname, outsideUrl) =>
    pathname === '/blank-link'
      ? `<h1>Allowed page</h1><a id="a" target="_blank" href="${outsideUrl('/inbox')}">open</a>`
      : pathname === '/download-link'
        ? `<h1>Allowed page</h1><a id="a" download="mail.eml" href="${outsideUrl('/inbox-download')}">save</a>`
        : pathname === '/open-on-click'
          ? `<h1>Allowed page</h1><button id="a">open</button><script>document.getElementById('a').onclick = () => window.open(${JSON.stringify(outsideUrl('/inbox-open'))});</script>`
          : '<h1>Allowed home</h1>',
  );
});
afterAll(async () => {
  await fence?.close();
});

describe("a donated browser's fence", () => {
  for (const path of ['/blank-link', '/open-on-click', '/download-link']) {
    it(`keeps a popup or download started by a task's click from leaving the allowed domains (${path})`, async () => {
      const tabsBefore = fence.donor.context.pages().length;
      const { status, json } = await fence.tabhive.post('/v2/scrape', {
        url: fence.fencedUrl(path),
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
      expect(fence.outsideHits).toEqual([]);
      // Nothing of the task is left in the person's browser.
      await waitUntil(
        () => fence.donor.context.pages().length === tabsBefore,
        5_000,
        'the task and its popup to close',
      );
    });
  }
});
