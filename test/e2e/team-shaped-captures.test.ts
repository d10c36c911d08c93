import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageSite } from '../helpers/page-site';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The shared cache must not take pages that a team's own browser state shaped. One pool browser
 * keeps a team's cookies and storage between that team's tasks; a team that logs the browser in to
 * a site (with actions, or with a plain scrape of a page that logs in on GET) and then scrapes a
 * page of that site plainly gets its logged-in page, which is its own and no other team's. The
 * site logs in on /login (a button, for actions) and /login-get, and shows on /echo what a visitor
 * brings: the Cookie header it sent and its localStorage.
 */

let site: Awaited<ReturnType<typeof startPageSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamBKey: string;
const echoCookies: string[] = [];

beforeAll(async () => {
  site = await startPageSite({ host: '127.0.0.1', title: 'Site' }, ({ url, request, page }) => {
    const who = url.searchParams.get('as') ?? 'nobody';
    if (url.pathname === '/login') {
      page(
        `<h1>Log in</h1><button id="login" onclick="document.cookie = 'session=COOKIE-${who}; path=/'; ` +
          `localStorage.setItem('session', 'LS-${who}'); document.querySelector('h1').textContent = 'Logged in';">Log in</button>`,
      );
      return;
    }
    if (url.pathname === '/login-get') {
      page(`<h1>Logged in as ${who}</h1><script>localStorage.setItem('session', 'LS-${who}');</script>`, {
        'set-cookie': `session=COOKIE-${who}; Path=/; Max-Age=3600`,
      });
      return;
    }
    if (url.pathname === '/echo') {
      echoCookies.push(request.headers.cookie ?? '');
      page(
        `<main><h1>Echo</h1><p>COOKIE is "${request.headers.cookie ?? ''}"</p><p id="kept">LS is unknown</p>` +
          `<p>A page long enough to count as content of its own, whatever the visitor brought along.</p></main>` +
          `<script>document.getElementById('kept').textContent = 'LS is "' + (localStorage.getItem('session') ?? '') + '"';</script>`,
      );
      return;
    }
    page('<h1>Home</h1>');
  });
  tabhive = await startTestTabhive({ browsers: 1 });
  teamBKey = await addOtherTeam(tabhive);
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function scrape(apiKey: string, body: Record<string, unknown>): Promise<any> {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ formats: ['markdown'], ...body }),
  });
  const json = (await response.json()) as { data: unknown };
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json.data;
}

describe('captures shaped by a team in the shared pool browser', () => {
  it.each([
    [
      'actions',
      (tag: string) => ({
        url: site.url(`/login?as=${tag}`),
        actions: [
          { type: 'click', selector: '#login' },
          { type: 'wait', milliseconds: 100 },
        ],
      }),
    ],
    [
      'a plain scrape of a page that logs in',
      (tag: string) => ({ url: site.url(`/login-get?as=${tag}`), waitFor: 100 }),
    ],
  ])('are never served to another team: team A logs in with %s', async (_, login) => {
    const tag = `TEAM-A-${Math.random().toString(36).slice(2, 8)}`;
    const echo = site.url(`/echo?cachetest=${tag}`);
    await scrape(tabhive.apiKey, login(tag));
    // A plain scrape: no headers, actions or profile. The browser still holds team A's login.
    const forA = await scrape(tabhive.apiKey, { url: echo, waitFor: 300 });
    expect(forA.markdown).toContain(`COOKIE is "session=COOKIE-${tag}"`);
    expect(forA.markdown).toContain(`LS is "LS-${tag}"`);

    // Team B's default scrape of the same URL: not team A's page from the cache, a page of its own.
    const before = echoCookies.length;
    const forB = await scrape(teamBKey, { url: echo });
    expect(forB.metadata.cacheState).toBe('miss');
    expect(forB.markdown).not.toContain(`COOKIE-${tag}`);
    expect(forB.markdown).not.toContain(`LS-${tag}`);
    expect(forB.markdown).toContain('COOKIE is ""');
    // The site saw team B come without a cookie (the fast path, and the browser if the page went there).
    expect(echoCookies.length).toBeGreaterThan(before);
    expect(new Set(echoCookies.slice(before))).toEqual(new Set(['']));
  });

  it('still shares a page the pool browser took in state nothing of the team had touched', async () => {
    const url = site.url(`/echo?shared=${Math.random().toString(36).slice(2, 8)}`);
    // The browser goes to team A, then back to team B: B's first task there meets a fresh state.
    await scrape(tabhive.apiKey, { url: site.url('/'), waitFor: 100 });
    const forB = await scrape(teamBKey, { url, waitFor: 300 });
    expect(forB.markdown).toContain('COOKIE is ""');
    const forA = await scrape(tabhive.apiKey, { url });
    expect(forA.metadata.cacheState).toBe('hit');
    expect(forA.markdown).toContain('COOKIE is ""');
  });
});
