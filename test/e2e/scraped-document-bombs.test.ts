import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flateBombPdf } from '../helpers/hostile-documents';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * Hostile PDFs reached by scraping a URL (as any crawl may reach one) rather than uploaded: the
 * browser captures them and the server parses them in its document pool. The scraping team gets a
 * clear error within its timeout; another team's scrapes answer 200 within theirs meanwhile.
 */

const OTHER_TEAM_TIMEOUT_MS = 30_000;
const BOMBS: Record<string, Buffer> = {
  '/inflate-bomb.pdf': flateBombPdf(300),
  '/text-bomb.pdf': flateBombPdf(16),
};

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let otherTeamKey: string;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  site = createServer((request, response) => {
    const bomb = BOMBS[request.url ?? ''];
    if (bomb !== undefined) {
      response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': bomb.length });
      response.end(bomb);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Other</title></head><body><h1>Other team page</h1>
      <p>${request.url ?? ''} is an ordinary article that needs no browser.</p></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  tabhive = await startTestTabhive();
  otherTeamKey = await addOtherTeam(tabhive);
}, 60_000);

afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

async function scrape(key: string, body: object) {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ maxAge: 0, ...body }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
  return { status: response.status, json: (await response.json()) as any };
}

describe('scraped hostile PDFs', { timeout: 120_000 }, () => {
  it.each([
    ['/inflate-bomb.pdf', /compression bomb/],
    ['/text-bomb.pdf', /characters of text/],
  ])('%s fails clearly while another team scrapes in time', async (path, reason) => {
    const bomb = scrape(tabhive.apiKey, { url: `${siteUrl}${path}`, timeout: 60_000 });
    const others = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const answers = [];
      for (const n of [1, 2]) {
        answers.push(
          await scrape(otherTeamKey, {
            url: `${siteUrl}/other-${path}-${n}`,
            timeout: OTHER_TEAM_TIMEOUT_MS,
          }),
        );
      }
      return answers;
    })();
    const [bombed, otherAnswers] = await Promise.all([bomb, others]);
    for (const other of otherAnswers) {
      expect(other.status).toBe(200);
      expect(other.json.data.markdown).toContain('Other team page');
    }
    expect(bombed).toMatchObject({
      status: 422,
      json: { success: false, code: 'DERIVATION_LIMIT_EXCEEDED', error: expect.stringMatching(reason) },
    });
  });
});
