import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import { startPairedDonor } from '../helpers/paired-donor';
import { openRelayClient } from '../helpers/relay-client';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * N1 on a donated browser (docs/cdp-relay-allowlist.md): a team member scrapes a page on the
 * owner's allowed domains, asks `/interact` for a cdpUrl, and tries to read the person's own files
 * with a drag that drops them into the page, or to leave the fence through the history.
 */

const HOME_SECRET = 'DONOR-PRIVATE-KEY-MATERIAL';

const DROP_PAGE = `<!doctype html><title>Drop</title>
<div id="zone" style="position:absolute;left:0;top:0;width:600px;height:400px">drop here</div>
<script>
window.dropped = [];
document.getElementById('zone').addEventListener('dragover', (event) => event.preventDefault());
document.getElementById('zone').addEventListener('drop', async (event) => {
  event.preventDefault();
  for (const file of event.dataTransfer.files) window.dropped.push(await file.text());
});
</script>`;

let site: Server;
const offFenceHits: string[] = [];
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;
let homeDir: string;

const siteUrl = (host: 'localhost' | '127.0.0.1', pathname: string) =>
  `http://${host}:${(site.address() as AddressInfo).port}${pathname}`;

beforeAll(async () => {
  homeDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-donor-home-'));
  await writeFile(path.join(homeDir, 'donor-home-secret.txt'), HOME_SECRET);
  site = createServer((request, response) => {
    if ((request.headers.host ?? '').startsWith('127.0.0.1')) offFenceHits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' }).end(DROP_PAGE);
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
  if (homeDir !== undefined) await rm(homeDir, { recursive: true, force: true });
});

describe("a donated browser's cdpUrl", () => {
  it("reads none of the person's files and stays on the fence (N1d)", async () => {
    const scraped = await tabhive.post('/v2/scrape', {
      url: siteUrl('localhost', '/drop'),
      formats: ['markdown'],
      maxAge: 0,
    });
    expect(scraped.status).toBe(200);
    const scrapeId = String(scraped.json.data.metadata.scrapeId);
    const interacted = await tabhive.post(`/v2/scrape/${scrapeId}/interact`, {
      code: 'location.hostname',
      language: 'page',
    });
    expect(interacted.json).toMatchObject({ success: true, result: 'localhost' });
    const cdpUrl = String(interacted.json.cdpUrl);
    expect(cdpUrl).toMatch(/\/cdp$/);

    const client = await openRelayClient(cdpUrl, tabhive.apiKey);
    try {
      await client.attach();
      const where = await client.send('Runtime.evaluate', {
        expression: 'location.href',
        returnByValue: true,
      });
      expect(where.result).toMatchObject({ result: { value: siteUrl('localhost', '/drop') } });
      for (const files of [[path.join(homeDir, 'donor-home-secret.txt')], [homeDir]]) {
        for (const type of ['dragEnter', 'dragOver', 'drop']) {
          const answer = await client.send('Input.dispatchDragEvent', {
            type,
            x: 100,
            y: 100,
            data: { items: [], files, dragOperationsMask: 1 },
          });
          expect(answer.error?.message).toMatch(/^Input\.dispatchDragEvent is not available.*files/);
        }
      }
      const dropped = await client.send('Runtime.evaluate', {
        expression: 'JSON.stringify(window.dropped)',
        returnByValue: true,
      });
      expect(dropped.result).toMatchObject({ result: { value: '[]' } });

      // Off the owner's domains: not by navigation, nor by the history, nor with their cookies.
      const off = await client.send('Page.navigate', { url: siteUrl('127.0.0.1', '/elsewhere') });
      expect(off.error?.message).toMatch(/outside the domains/);
      const history = await client.send('Page.getNavigationHistory');
      const entries = (history.result?.['entries'] ?? []) as Array<{ id: number; url: string }>;
      for (const entry of entries.filter(
        (candidate) => !candidate.url.includes('localhost') && candidate.url !== 'about:blank',
      )) {
        const back = await client.send('Page.navigateToHistoryEntry', { entryId: entry.id });
        expect(back.error, entry.url).toBeDefined();
      }
      const cookies = await client.send('Network.getCookies');
      expect(cookies.error?.message).toMatch(/stay with its owner/);
      expect(offFenceHits).toEqual([]);
      expect(client.everything()).not.toContain(HOME_SECRET);
    } finally {
      client.close();
      await fetch(`${tabhive.url}/v2/scrape/${scrapeId}/interact`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${tabhive.apiKey}` },
      });
    }
  });
});
