import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl from 'firecrawl';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../console/build-console.mjs';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * A browser session's replay end to end: a real Chromium with the built extension records the
 * session's tab with rrweb while Playwright (through the session's cdpUrl) visits two pages of a
 * fixture site and acts on them; the server serves each page's events at Firecrawl's replay routes
 * (and under /v2/interact) to the session's team only, and the console plays them with rrweb-player.
 */

const CHROMIUM_PATH = '/usr/lib/chromium/chromium';

let site: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;
let viewer: Browser | undefined;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

function startSite() {
  return createServer((request, response) => {
    const page = (title: string, body: string) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
    switch (new URL(request.url ?? '/', 'http://site').pathname) {
      case '/one':
        page(
          'One',
          `<h1>REPLAY-FIXTURE-ONE</h1><button id="go">Go</button><p id="out"></p>` +
            `<script>document.getElementById('go').onclick = () => {` +
            `document.getElementById('out').textContent = 'CLICKED-' + 'ONE'; };</script>`,
        );
        return;
      case '/two':
        page('Two', '<h1>REPLAY-FIXTURE-TWO</h1><label>Name <input id="name"></label>');
        return;
      default:
        response.writeHead(404).end();
    }
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Body = any;

async function get(path: string, apiKey = tabhive.apiKey): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${tabhive.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  site = startSite();
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  await buildConsole();
  tabhive = await startTestTabhive({ browsers: 1 });
  otherTeamKey = await addOtherTeam(tabhive);
});

afterAll(async () => {
  await viewer?.close();
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('session replay', () => {
  let id = '';

  it('records each page of a session with rrweb and serves its events per page', async () => {
    const firecrawl = new Firecrawl({ apiKey: tabhive.apiKey, apiUrl: tabhive.url });
    const session = await firecrawl.browser({ ttl: 300 });
    id = session.id as string;
    const driver = await chromium.connectOverCDP(session.cdpUrl as string, {
      headers: { Authorization: `Bearer ${tabhive.apiKey}` },
    });
    try {
      const page = driver.contexts()[0]?.pages()[0];
      if (page === undefined) throw new Error('no page through the relay');
      await page.goto(siteUrl('/one'));
      await page.click('#go');
      expect(await page.textContent('#out')).toBe('CLICKED-ONE');
      await page.goto(siteUrl('/two'));
      await page.fill('#name', 'Ada Lovelace');
    } finally {
      await driver.close();
    }

    // The recorder sends its batches a moment after they happen.
    const pageText = async (pageId: string) =>
      JSON.stringify((await get(`/v2/browser/${id}/replay/${pageId}`)).body);
    await waitUntil(
      async () => {
        const listed = await get(`/v2/browser/${id}/replay`);
        return (
          listed.body.pageCount === 2 &&
          (await pageText('0')).includes('CLICKED-ONE') &&
          (await pageText('1')).includes('Ada Lovelace')
        );
      },
      30_000,
      'both pages recorded, with what was done on them',
    );

    const listed = await get(`/v2/browser/${id}/replay`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({
      success: true,
      pageCount: 2,
      pages: [
        { pageId: '0', url: `/v2/browser/${id}/replay/0`, pageUrl: siteUrl('/one') },
        { pageId: '1', url: `/v2/browser/${id}/replay/1`, pageUrl: siteUrl('/two') },
      ],
    });
    for (const entry of listed.body.pages as Body[]) {
      expect(entry.endTimeMs).toBeGreaterThanOrEqual(entry.startTimeMs);
    }

    for (const [pageId, text] of [
      ['0', 'REPLAY-FIXTURE-ONE'],
      ['1', 'REPLAY-FIXTURE-TWO'],
    ] as const) {
      const replay = await get(`/v2/browser/${id}/replay/${pageId}`);
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({ success: true, pageId, events: expect.any(Array) });
      const events = replay.body.events as Body[];
      // rrweb's meta (4) and full snapshot (2) open each page's recording.
      expect(events.map((event) => event.type)).toEqual(expect.arrayContaining([4, 2]));
      const snapshot = events.find((event) => event.type === 2);
      expect(JSON.stringify(snapshot)).toContain(text);
      for (const event of events) expect(event.timestamp).toEqual(expect.any(Number));
    }
  });

  it('answers under /v2/interact too, and keeps the replay after the session ends', async () => {
    const deleted = await fetch(`${tabhive.url}/v2/interact/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(deleted.status).toBe(200);
    const listed = await get(`/v2/interact/${id}/replay`);
    expect(listed.status).toBe(200);
    expect(listed.body.pageCount).toBe(2);
    expect(listed.body.pages[1].url).toBe(`/v2/interact/${id}/replay/1`);
    const page = await get(`/v2/interact/${id}/replay/1`);
    expect(JSON.stringify(page.body.events)).toContain('REPLAY-FIXTURE-TWO');
  });

  it("gives another team's key a 404 and refuses a page id that is not one", async () => {
    for (const path of [
      `/v2/browser/${id}/replay`,
      `/v2/browser/${id}/replay/0`,
      `/v2/interact/${id}/replay`,
    ]) {
      const answer = await get(path, otherTeamKey);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ success: false, error: expect.any(String) });
      expect(JSON.stringify(answer.body)).not.toContain('REPLAY-FIXTURE');
    }
    expect((await get(`/v2/browser/${id}/replay/x1`)).status).toBe(400);
    expect((await get(`/v2/browser/${id}/replay/99`)).status).toBe(404);
  });

  it('plays the replay in the console with rrweb-player', async () => {
    viewer = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    const page = await (await viewer.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${tabhive.url}/console`);
    await page.getByLabel('API key').fill(tabhive.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('who').waitFor();
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('link', { name: id }).click();
    const player = page.getByTestId('replay-player');
    await player.locator('.rr-player').waitFor();
    // The replayer rebuilt the recorded page inside its frame.
    const frame = player.locator('iframe').contentFrame();
    await expect
      .poll(
        async () =>
          (await frame
            .locator('h1')
            .textContent()
            .catch(() => null)) ?? '',
        { timeout: 20_000 },
      )
      .toBe('REPLAY-FIXTURE-ONE');
    // The second page is a choice away.
    await page.getByLabel('Page').selectOption('1');
    await expect
      .poll(
        async () =>
          (await frame
            .locator('h1')
            .textContent()
            .catch(() => null)) ?? '',
        { timeout: 20_000 },
      )
      .toBe('REPLAY-FIXTURE-TWO');
  });
});
