import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFencedDonor, type FencedDonor } from '../helpers/fenced-donor';
import { waitUntil } from '../helpers/start-test-tabhive';

/**
 * N9 of the red-team report: on a person's donated browser, a popup opened from a sandboxed
 * (opaque-origin) frame of an allowed page must not load a site outside the owner's allowed
 * domains with the owner's cookie. An opaque initiator matches no initiator condition, so the
 * fence must not depend on one. The allowed site is `localhost`; outside the fence is 127.0.0.3,
 * where the owner is logged in.
 */

let fence: FencedDonor;

/** A sandboxed frame whose whole area is a link (or a button) opening the site outside the fence. */
function sandboxedFrame(inner: string, sandbox: string): string {
  const srcdoc = `<style>html,body,a,button{margin:0;width:100%;height:100%;display:block}</style>${inner}`;
  return `<h1>Allowed page</h1><iframe id="a" sandbox="${sandbox}" style="width:400px;height:300px;border:0" srcdoc="${srcdoc.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"></iframe>`;
}

beforeAll(async () => {
  fence = await startFencedDonor((pathname, outsideUrl) =>
    pathname === '/sandboxed-link'
      ? sandboxedFrame(
          `<a target="_blank" href="${outsideUrl('/inbox?sandbox-popup=1')}">open</a>`,
          'allow-popups',
        )
      : pathname === '/sandboxed-open'
        ? sandboxedFrame(
            `<button onclick="window.open('${outsideUrl('/inbox?sandbox-open=1')}')">open</button>`,
            'allow-popups allow-scripts',
          )
        : '<h1>Allowed home</h1>',
  );
});
afterAll(async () => {
  await fence?.close();
});

describe("a donated browser's fence", () => {
  for (const path of ['/sandboxed-link', '/sandboxed-open']) {
    it(`keeps a popup from a sandboxed frame inside the allowed domains (${path})`, async () => {
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
      expect({ status, error: json.error }).toEqual({ status: 200, error: undefined });
      expect(json.data.markdown).toContain('Allowed page');
      expect(fence.outsideHits).toEqual([]);
      await waitUntil(
        () => fence.donor.context.pages().length === tabsBefore,
        5_000,
        'the task and its popup to close',
      );
    });
  }

  it('leaves the person free to browse outside the fence once the task is done', async () => {
    const page = await fence.donor.context.newPage();
    try {
      await page.goto(fence.outsideUrl('/own-browsing'));
      expect(await page.textContent('h1')).toBe('Webmail inbox');
    } finally {
      await page.close();
    }
    expect(fence.outsideHits.map((hit) => hit.path)).toContain('/own-browsing');
    fence.outsideHits.length = 0;
  });
});
