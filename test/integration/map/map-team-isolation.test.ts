import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createLog } from '../../../server/platform/log/log';
import { startTabhive, type RunningTabhive } from '../../../server/start-tabhive';
import { waitUntil } from '../../helpers/start-test-tabhive';

const RESET_TOKEN = 'TEAM-A-RESET-TOKEN-123';
const SIGNATURE = 'TEAM-A-SIGNED-URL';
const CONFIRM_TOKEN = 'TEAM-A-CONFIRM-TOKEN';
/** Capabilities in paths, as sites hand them out (carries-secret.ts). */
const SHARE_TOKEN = 'TEAM-A-CAPABILITY-7f3a9c2e41';
const INVITE_CODE = 'xK9mQ2wL7p';
const DOC_ID = '3b241101-e2bb-4255-8caf-4136c566a962';

/**
 * A site on `bank.localhost` whose home page links to the public pages only; the pages behind
 * team A's secret URLs link on to more secrets. Plain HTML: the HTTP fast path serves it all.
 */
async function startBankSite() {
  const page = (title: string, links: string[]) =>
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${links
      .map((href) => `<a href="${href}">${href}</a>`)
      .join(
        ' ',
      )}<p>Some text about ${title} so that the page has content of its own.</p></main></body></html>`;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const html = (body: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };
    if (url.pathname === '/') return html(page('Bank', ['/help.html', '/pricing.html']));
    if (url.pathname === '/account/reset')
      return html(page('Reset your password', [`/account/confirm?token=${CONFIRM_TOKEN}`, '/help.html']));
    if (url.pathname === '/internal-report-q3') return html(page('Q3 report', ['/']));
    if (url.pathname === `/share/${SHARE_TOKEN}/doc`)
      return html(page('Shared plan', [`/share/${SHARE_TOKEN}/edit`, `/docs/${DOC_ID}`, '/help.html']));
    if (url.pathname === '/team')
      return html(page('Our team', [`/invite/${INVITE_CODE}`, '/invite/friends', '/help.html']));
    if (url.pathname === '/help.html' || url.pathname === '/pricing.html')
      return html(page(url.pathname, ['/']));
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://bank.localhost:${port}${pathname}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let site: Awaited<ReturnType<typeof startBankSite>>;
let tabhive: RunningTabhive;
let dataDir: string;
const keys: Record<'a' | 'b', string> = { a: '', b: '' };

beforeAll(async () => {
  site = await startBankSite();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-map-teams-'));
  tabhive = await startTabhive({
    config: loadConfig({
      PORT: '0',
      BROWSERS: '0',
      DATA_DIR: dataDir,
      API_KEY: 'fc-map-team-isolation-default',
      ALLOW_PRIVATE_NETWORKS: 'true',
    }),
    server: createServer(),
    log: createLog({ quiet: true }),
  });
  for (const team of ['a', 'b'] as const) {
    await tabhive.stores.teams.ensure({ id: `team-${team}`, name: `Team ${team}` });
    keys[team] = (await tabhive.stores.apiKeys.create({ teamId: `team-${team}`, label: 'test' })).apiKey;
  }
});
afterAll(async () => {
  await tabhive?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  await site?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
type Answer = { status: number; json: any };

async function post(team: 'a' | 'b', pathname: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${tabhive.url}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys[team]}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** The URLs a team's v2 map of the site lists, queries kept. */
async function mapV2(team: 'a' | 'b'): Promise<string[]> {
  const answer = await post(team, '/v2/map', { url: site.url('/'), ignoreQueryParameters: false });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return (answer.json.links as Array<{ url: string }>).map((link) => link.url);
}

describe('the map index across teams', () => {
  it('never shows one team the query strings of URLs another team scraped', async () => {
    for (const secret of [`/account/reset?token=${RESET_TOKEN}`, `/internal-report-q3?sig=${SIGNATURE}`]) {
      const scraped = await post('a', '/v2/scrape', { url: site.url(secret), formats: ['links'] });
      expect(scraped.status, JSON.stringify(scraped.json)).toBe(200);
    }
    // Team A's own maps show what it scraped, token and all, once the index has it.
    await waitUntil(
      async () => {
        const links = await mapV2('a');
        return [RESET_TOKEN, SIGNATURE, CONFIRM_TOKEN].every((token) =>
          links.some((link) => link.includes(token)),
        );
      },
      20_000,
      "team A's scrapes to reach its map",
    );

    const v2 = await mapV2('b');
    expect(v2).toContain(site.url('/help.html'));
    const v1 = await post('b', '/v1/map', { url: site.url('/'), ignoreQueryParameters: false });
    expect(v1.status, JSON.stringify(v1.json)).toBe(200);
    for (const answer of [JSON.stringify(v2), JSON.stringify(v1.json)]) {
      expect(answer).not.toContain(RESET_TOKEN);
      expect(answer).not.toContain(SIGNATURE);
      expect(answer).not.toContain(CONFIRM_TOKEN);
      expect(answer).not.toContain('?token=');
      expect(answer).not.toContain('?sig=');
    }
    // Nor does the index hold a query string where every team's map reads.
    const shared = await tabhive.stores.mapIndex.listDomain({
      domain: 'bank.localhost',
      scopes: ['public'],
      limit: 100,
    });
    expect(shared.filter((entry) => new URL(entry.url).search !== '')).toEqual([]);
  });

  it('never shows one team the secret-looking paths of pages another team scraped', async () => {
    for (const pathname of [`/share/${SHARE_TOKEN}/doc`, '/team']) {
      const scraped = await post('a', '/v2/scrape', { url: site.url(pathname), formats: ['links'] });
      expect(scraped.status, JSON.stringify(scraped.json)).toBe(200);
    }
    await waitUntil(
      async () => {
        const links = await mapV2('a');
        return [SHARE_TOKEN, INVITE_CODE, DOC_ID].every((token) =>
          links.some((link) => link.includes(token)),
        );
      },
      20_000,
      "team A's scrapes to reach its map",
    );

    const v2 = await mapV2('b');
    // What the pages show that is no secret still reaches every team.
    expect(v2).toContain(site.url('/team'));
    expect(v2).toContain(site.url('/invite/friends'));
    const v1 = await post('b', '/v1/map', { url: site.url('/'), ignoreQueryParameters: false });
    expect(v1.status, JSON.stringify(v1.json)).toBe(200);
    for (const answer of [JSON.stringify(v2), JSON.stringify(v1.json)]) {
      for (const secret of [SHARE_TOKEN, INVITE_CODE, DOC_ID, '/share/'])
        expect(answer).not.toContain(secret);
    }
    const shared = await tabhive.stores.mapIndex.listDomain({
      domain: 'bank.localhost',
      scopes: ['public'],
      limit: 100,
    });
    expect(shared.map((entry) => entry.url).filter((url) => /share|invite\/x|docs\//.test(url))).toEqual([]);
  });
});
