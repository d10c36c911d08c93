import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageSite } from '../helpers/page-site';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * H1 of the red-team report: one pool browser serves every team, and a team that logs in (a
 * cookie, localStorage) must not hand that session to the next team's scrapes of the same site.
 * The site sets state on /login and shows what a visitor brings on /whoami.
 */

let site: Awaited<ReturnType<typeof startPageSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamBKey: string;
const cookiesSeen: string[] = [];

beforeAll(async () => {
  site = await startPageSite({ host: '127.0.0.1', title: 'Site' }, ({ url, request, page }) => {
    if (url.pathname === '/login') {
      const who = url.searchParams.get('as') ?? 'nobody';
      page(
        `<h1>Logged in as ${who}</h1><script>localStorage.setItem('session', ${JSON.stringify(`LS-${who}`)});` +
          `sessionStorage.setItem('session', ${JSON.stringify(`SS-${who}`)});</script>`,
        { 'set-cookie': `session=COOKIE-${who}; Path=/; Max-Age=3600` },
      );
      return;
    }
    if (url.pathname === '/whoami') {
      cookiesSeen.push(request.headers.cookie ?? '');
      page(
        `<h1>Who am I</h1><p id="sent">COOKIE is "${request.headers.cookie ?? ''}"</p><p id="kept"></p>` +
          `<script>const ls = localStorage.getItem('session') ?? ''; const ss = sessionStorage.getItem('session') ?? '';` +
          `document.getElementById('kept').textContent = 'LS is "' + ls + '" and SS is "' + ss + '"';</script>`,
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
async function browserScrape(apiKey: string, url: string, waitFor = 300): Promise<any> {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    // waitFor sends the page through the browser; maxAge 0 so nothing comes from the cache.
    body: JSON.stringify({ url, formats: ['markdown'], waitFor, maxAge: 0 }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { markdown: string } }).data.markdown;
}

describe('browser state in the shared pool', () => {
  it("never carries one team's cookies or storage into another team's scrapes", async () => {
    expect(await browserScrape(tabhive.apiKey, site.url('/login?as=team-a'))).toContain(
      'Logged in as team-a',
    );
    // Team A's own next visit has its session: a team's state lives on while it has the browser.
    const ownVisit = await browserScrape(tabhive.apiKey, site.url('/whoami'));
    expect(ownVisit).toContain('COOKIE is "session=COOKIE-team-a"');
    expect(ownVisit).toContain('LS is "LS-team-a"');

    for (let visit = 0; visit < 3; visit += 1) {
      const markdown = await browserScrape(teamBKey, site.url('/whoami'));
      expect(markdown).toContain('COOKIE is ""');
      expect(markdown).toContain('LS is "" and SS is ""');
      expect(markdown).not.toContain('team-a');
    }
    expect(cookiesSeen.slice(-3)).toEqual(['', '', '']);
  });

  it('keeps teams apart when their scrapes arrive at the same time', async () => {
    const [, teamB] = await Promise.all([
      // Team A logs in on a page that takes a while; team B asks who it is meanwhile.
      browserScrape(tabhive.apiKey, site.url('/login?as=team-a2'), 1_500),
      new Promise((resolve) => setTimeout(resolve, 200)).then(() =>
        browserScrape(teamBKey, site.url('/whoami')),
      ),
    ]);
    expect(teamB).toContain('COOKIE is ""');
    expect(teamB).toContain('LS is "" and SS is ""');
    expect(teamB).not.toContain('team-a2');
  });
});
