import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flateBombPdf, longRowsXlsx, manyPagesPdf } from '../../helpers/hostile-documents';
import { addOtherTeam, startTestTabhive } from '../../helpers/start-test-tabhive';

/**
 * Hostile documents uploaded to /v2/parse by one team while another team scrapes: the documents
 * are refused (or cut) with a clear answer, and the other team's scrape answers 200 within its own
 * timeout throughout. The whole server runs as main.ts composes it (its derivation pools
 * included), without browsers: the other team's page is plain HTML, served over the fast path.
 */

/** The other team's scrape timeout: the bound its answer must come within. */
const OTHER_TEAM_TIMEOUT_MS = 30_000;

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  site = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Other</title></head><body><h1>Other team page</h1>
      <p>${request.url ?? ''} is an ordinary article with enough words to need no browser at all.</p></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  tabhive = await startTestTabhive({ browsers: 0 });
  otherTeamKey = await addOtherTeam(tabhive);
}, 60_000);

afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Answer = { status: number; json: any };

async function upload(bytes: Buffer, filename: string, options: object = {}): Promise<Answer> {
  const form = new FormData();
  form.append('options', JSON.stringify(options));
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const response = await fetch(`${tabhive.url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tabhive.apiKey}` },
    body: form,
  });
  return { status: response.status, json: await response.json() };
}

/** The other team scrapes a page no cache holds, with the timeout it gives. */
async function otherTeamScrape(tag: string): Promise<Answer> {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${otherTeamKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: `${siteUrl}/during-${tag}-${Date.now()}`,
      maxAge: 0,
      timeout: OTHER_TEAM_TIMEOUT_MS,
    }),
  });
  return { status: response.status, json: await response.json() };
}

/**
 * Uploads `bytes` and, once the upload is under way, has the other team scrape twice; the
 * scrapes must succeed, which the scraper only lets them do within their timeout (a later one
 * answers 408 SCRAPE_TIMEOUT).
 */
async function uploadWhileOtherTeamScrapes(bytes: Buffer, filename: string, options: object = {}) {
  const parsing = upload(bytes, filename, options);
  const scrapes = (async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = await otherTeamScrape(filename);
    const second = await otherTeamScrape(`${filename}-again`);
    return [first, second];
  })();
  const [parsed, others] = await Promise.all([parsing, scrapes]);
  for (const other of others) {
    expect(other.status).toBe(200);
    expect(other.json.data.markdown).toContain('Other team page');
  }
  return parsed;
}

describe('hostile documents do not starve other teams', { timeout: 120_000 }, () => {
  it('refuses a PDF whose stream inflates to hundreds of megabytes, while the other team scrapes', async () => {
    const parsed = await uploadWhileOtherTeamScrapes(flateBombPdf(300), 'bomb.pdf');
    expect(parsed.status).toBe(422);
    expect(parsed.json).toMatchObject({ success: false, code: 'ARCHIVE_LIMIT_EXCEEDED' });
    expect(parsed.json.error).toMatch(/compression bomb/);
  });

  it('refuses a PDF with more text than a document may hold, while the other team scrapes', async () => {
    // 16 MiB of text operators (10 M characters): under the inflation limit, over the text limit once read.
    const parsed = await uploadWhileOtherTeamScrapes(flateBombPdf(16), 'text-bomb.pdf');
    expect(parsed.status).toBe(422);
    expect(parsed.json).toMatchObject({ success: false, code: 'DERIVATION_LIMIT_EXCEEDED' });
    expect(parsed.json.error).toMatch(/characters of text/);
  });

  it('reads a PDF of thousands of pages only up to the page cap, while the other team scrapes', async () => {
    const parsed = await uploadWhileOtherTeamScrapes(manyPagesPdf(3_000), 'pages.pdf');
    expect(parsed.status).toBe(200);
    expect(parsed.json.data.metadata.numPages).toBeLessThanOrEqual(1_000);
    expect(parsed.json.data.metadata.totalPages).toBe(3_000);
  });

  it('honours a smaller maxPages on such a PDF', async () => {
    const parsed = await upload(manyPagesPdf(3_000), 'pages.pdf', {
      parsers: [{ type: 'pdf', maxPages: 5 }],
    });
    expect(parsed.status).toBe(200);
    expect(parsed.json.data.metadata).toMatchObject({ numPages: 5, totalPages: 3_000 });
  });

  it('refuses a workbook whose rows make gigabytes of text early, while the other team scrapes', async () => {
    const parsed = await uploadWhileOtherTeamScrapes(longRowsXlsx(20_000), 'rows.xlsx');
    expect(parsed.status).toBe(422);
    expect(parsed.json).toMatchObject({ success: false, code: 'ARCHIVE_LIMIT_EXCEEDED' });
    expect(parsed.json.error).toMatch(/characters of text/);
  });

  it('answers a parse past its timeout with 408 SCRAPE_TIMEOUT, and stays ready', async () => {
    const parsed = await upload(manyPagesPdf(5_000), 'slow.pdf', {
      timeout: 1_000,
      parsers: [{ type: 'pdf', maxPages: 5_000 }],
    });
    expect(parsed).toMatchObject({ status: 408, json: { success: false, code: 'SCRAPE_TIMEOUT' } });
    const health = await fetch(`${tabhive.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    expect((await otherTeamScrape('after-timeout')).status).toBe(200);
  });
});
