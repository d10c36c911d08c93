import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import { startPairedDonor } from '../helpers/paired-donor';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * Session replay in a donated browser (docs/donated-browsers.md): an interaction with a page of
 * the person's allowed domains records that task's tab only, while the person's own tab on the
 * same site, with what they type there, is never recorded; and the options page tells them so.
 */

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;

const siteUrl = (pathname: string) => `http://localhost:${(site.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  site = createServer((request, response) => {
    const own = request.url === '/own';
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><title>${own ? 'Own' : 'Task'}</title>` +
          `<h1>${own ? 'PERSON-OWN-PAGE' : 'DONATED-TASK-PAGE'}</h1><input id="note">`,
      );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
  ({ donor } = await startPairedDonor({
    tabhive,
    donation: { enabled: true, allowedDomains: ['localhost'], maxTabs: 2, allowJavascript: true },
  }));
});

afterAll(async () => {
  await donor?.close();
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('session replay in a donated browser', () => {
  // First: a desktop Chromium quits when its last window closes, which the interaction's end may be.
  it('tells the person, where they lend the browser, that task tabs are recorded and theirs are not', async () => {
    const options = await donor.context.newPage();
    await options.goto(`chrome-extension://${donor.extensionId}/options.html`);
    await expect
      .poll(async () =>
        ((await options.locator('#donation-enabled-hint').textContent()) ?? '').replace(/\s+/g, ' '),
      )
      .toMatch(/that task’s tab is recorded for the team to replay.*your own tabs are never recorded/s);
  });

  it("records the interaction's tab, never the person's own tab", async () => {
    // The person works in a tab of their own on the same allowed site.
    const own = await donor.context.newPage();
    await own.goto(siteUrl('/own'));
    await own.fill('#note', 'PERSON-TYPED-SECRET');

    const scraped = await tabhive.post('/v2/scrape', {
      url: siteUrl('/task'),
      formats: ['markdown'],
      maxAge: 0,
    });
    expect(scraped.status).toBe(200);
    const scrapeId = String(scraped.json.data.metadata.scrapeId);
    const interacted = await tabhive.post(`/v2/scrape/${scrapeId}/interact`, {
      actions: [
        { type: 'click', selector: '#note' },
        { type: 'write', text: 'TASK-TYPED' },
      ],
    });
    expect(interacted.status).toBe(200);
    const id = /\/v2\/browser\/([^/]+)\/cdp$/.exec(String(interacted.json.cdpUrl))?.[1] ?? '';
    expect(id).not.toBe('');

    // The person keeps working in their tab while the session runs.
    await own.fill('#note', 'PERSON-TYPED-AGAIN');
    await own.reload();

    const replay = async () => {
      const response = await fetch(`${tabhive.url}/v2/browser/${id}/replay/0`, {
        headers: { authorization: `Bearer ${tabhive.apiKey}` },
      });
      return response.ok ? JSON.stringify(await response.json()) : '';
    };
    await expect.poll(replay, { timeout: 30_000, interval: 200 }).toContain('TASK-TYPED');
    const recorded = await replay();
    expect(recorded).toContain('DONATED-TASK-PAGE');
    for (const mine of ['PERSON-OWN-PAGE', 'PERSON-TYPED-SECRET', 'PERSON-TYPED-AGAIN']) {
      expect(recorded).not.toContain(mine);
    }
    const listed = await fetch(`${tabhive.url}/v2/browser/${id}/replay`, {
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    }).then((response) => response.json() as Promise<{ pages: { pageUrl: string }[] }>);
    expect(listed.pages.map((page) => page.pageUrl)).toEqual([siteUrl('/task')]);
    const stopped = await fetch(`${tabhive.url}/v2/scrape/${scrapeId}/interact`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(stopped.status).toBe(200);
  });
});
