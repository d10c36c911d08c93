import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_TEXT, MEMBER_COOKIE, MEMBERS_ONLY_TEXT, startMembersSite } from '../helpers/members-site';
import { startPairedDonor } from '../helpers/paired-donor';
import { addOtherTeam, startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The v2 scrape option `profile`: a team's named browser profile keeps cookies and localStorage
 * between scrapes on the launched browsers, and nothing of it reaches a scrape without the
 * profile, another team, or the shared cache.
 *
 * The site: /login sets an HttpOnly session cookie and a localStorage token, /pref a second
 * cookie, /logout clears both, and /whoami shows what the visitor brought.
 */

let site: Server;
let members: Awaited<ReturnType<typeof startMembersSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let teamBKey: string;

const siteUrl = (pathname: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${pathname}`;

function startSite() {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const page = (body: string, headers: Record<string, string | string[]> = {}) =>
      response
        .writeHead(200, { 'content-type': 'text/html', ...headers })
        .end(`<!doctype html><html><head><title>Site</title></head><body>${body}</body></html>`);
    const who = url.searchParams.get('as') ?? 'nobody';
    switch (url.pathname) {
      case '/login':
        page(
          `<h1>Logged in as ${who}</h1><script>localStorage.setItem('token', ${JSON.stringify(`LS-${who}`)});</script>`,
          { 'set-cookie': `session=COOKIE-${who}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax` },
        );
        return;
      case '/pref':
        page('<h1>Preference kept</h1>', { 'set-cookie': 'pref=dark; Path=/; Max-Age=3600' });
        return;
      case '/logout':
        page(`<h1>Logged out</h1><script>localStorage.removeItem('token');</script>`, {
          'set-cookie': 'session=; Path=/; Max-Age=0',
        });
        return;
      case '/whoami':
        page(
          `<h1>Who am I</h1><p id="sent">COOKIE is "${request.headers.cookie ?? ''}"</p><p id="kept"></p>` +
            `<script>document.getElementById('kept').textContent = 'LS is "' + (localStorage.getItem('token') ?? '') + '"';</script>`,
        );
        return;
      default:
        page('<h1>Home</h1>');
    }
  });
}

beforeAll(async () => {
  site = startSite();
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  members = await startMembersSite();
  tabhive = await startTestTabhive({ browsers: 1 });
  teamBKey = await addOtherTeam(tabhive);
});
afterAll(async () => {
  await tabhive?.stop();
  await members?.close();
  await new Promise((resolve) => site?.close(resolve));
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function scrape(body: Record<string, unknown>, apiKey = tabhive.apiKey): Promise<any> {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ formats: ['markdown'], ...body }),
  });
  const json = (await response.json()) as { data?: unknown };
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json.data;
}

const whoami = async (profile?: Record<string, unknown>, apiKey?: string): Promise<string> =>
  (await scrape({ url: siteUrl('/whoami'), ...(profile === undefined ? {} : { profile }) }, apiKey)).markdown;

describe('browser profiles (scrape option `profile`)', () => {
  it('keeps a login made with actions for the next scrape with the profile, and for no other', async () => {
    const membersPage = members.url('127.0.0.1', '/members');
    const first = await scrape({
      url: membersPage,
      profile: { name: 'guild' },
      actions: [
        {
          type: 'executeJavascript',
          script: `document.cookie = '${MEMBER_COOKIE.name}=${MEMBER_COOKIE.value}; Path=/; Max-Age=3600'`,
        },
      ],
    });
    // The page was captured after the action, but it loaded before the login.
    expect(first.markdown).toContain(LOGIN_TEXT);

    const second = await scrape({ url: membersPage, profile: { name: 'guild' } });
    expect(second.markdown).toContain(MEMBERS_ONLY_TEXT);
    expect(members.hits.at(-1)?.headers.cookie).toBe(`${MEMBER_COOKIE.name}=${MEMBER_COOKIE.value}`);

    // Without the profile, the same team's browser holds none of it.
    expect((await scrape({ url: membersPage, maxAge: 0, waitFor: 200 })).markdown).toContain(LOGIN_TEXT);
    expect(members.hits.at(-1)?.headers.cookie).toBeUndefined();
  });

  it('keeps HttpOnly cookies and localStorage, per team: the same name is another profile elsewhere', async () => {
    expect((await scrape({ url: siteUrl('/login?as=alice'), profile: { name: 'p' } })).markdown).toContain(
      'Logged in as alice',
    );
    const again = await whoami({ name: 'p' });
    expect(again).toContain('COOKIE is "session=COOKIE-alice"');
    expect(again).toContain('LS is "LS-alice"');

    // No profile, in the browser that just held it: nothing.
    const anonymous = await scrape({ url: siteUrl('/whoami'), maxAge: 0, waitFor: 200 });
    expect(anonymous.markdown).toContain('COOKIE is ""');
    expect(anonymous.markdown).toContain('LS is ""');

    // Team B's profile "p" is its own, empty until team B logs in with it.
    const teamB = await whoami({ name: 'p' }, teamBKey);
    expect(teamB).toContain('COOKIE is ""');
    expect(teamB).toContain('LS is ""');
    await scrape({ url: siteUrl('/login?as=bob'), profile: { name: 'p' } }, teamBKey);
    expect(await whoami({ name: 'p' }, teamBKey)).toContain('COOKIE is "session=COOKIE-bob"');
    const teamA = await whoami({ name: 'p' });
    expect(teamA).toContain('COOKIE is "session=COOKIE-alice"');
    expect(teamA).not.toContain('bob');

    const stored = await tabhive.tabhive.stores.browserProfiles.load('default', 'p');
    expect(stored.state.cookies).toEqual([
      expect.objectContaining({ name: 'session', value: 'COOKIE-alice', httpOnly: true, hostOnly: true }),
    ]);
    expect(stored.state.localStorage).toEqual([
      { origin: siteUrl('').replace(/\/$/, ''), items: [{ key: 'token', value: 'LS-alice' }] },
    ]);
  });

  it('uses the profile without changing it when saveChanges is false', async () => {
    await scrape({ url: siteUrl('/login?as=carol'), profile: { name: 'readonly' } });
    const loggedOut = await scrape({
      url: siteUrl('/logout'),
      profile: { name: 'readonly', saveChanges: false },
    });
    expect(loggedOut.markdown).toContain('Logged out');
    const still = await whoami({ name: 'readonly', saveChanges: false });
    expect(still).toContain('COOKIE is "session=COOKIE-carol"');
    expect(still).toContain('LS is "LS-carol"');

    // Saved (the default), the same logout sticks.
    await scrape({ url: siteUrl('/logout'), profile: { name: 'readonly' } });
    const gone = await whoami({ name: 'readonly' });
    expect(gone).toContain('COOKIE is ""');
    expect(gone).toContain('LS is ""');
  });

  it('neither answers from nor fills the shared cache', async () => {
    await scrape({ url: siteUrl('/login?as=dave'), profile: { name: 'cache' } });
    // An anonymous scrape fills the cache; the profile's scrape of the same URL must not read it.
    expect(await whoami()).toContain('COOKIE is ""');
    const profiled = await scrape({ url: siteUrl('/whoami'), profile: { name: 'cache' } });
    expect(profiled.markdown).toContain('COOKIE is "session=COOKIE-dave"');
    expect(profiled.metadata.cacheState).toBeUndefined();
    // And what the profile saw is not served to anyone else from the cache.
    const after = await scrape({ url: siteUrl('/whoami') });
    expect(after.metadata.cacheState).toBe('hit');
    expect(after.markdown).not.toContain('dave');
  });

  it('merges what scrapes of one profile changed at the same time', async () => {
    await Promise.all([
      scrape({ url: siteUrl('/login?as=erin'), profile: { name: 'both' } }),
      scrape({ url: siteUrl('/pref'), profile: { name: 'both' } }),
    ]);
    const both = await whoami({ name: 'both' });
    expect(both).toContain('session=COOKIE-erin');
    expect(both).toContain('pref=dark');
  });

  it('refuses a profile name that is not a plain name', async () => {
    const response = await fetch(`${tabhive.url}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tabhive.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: siteUrl('/whoami'), profile: { name: '../other-team' } }),
    });
    expect(response.status).toBe(400);
    const json = (await response.json()) as { success: boolean; error: string; details: unknown };
    expect(json.success).toBe(false);
    expect(JSON.stringify(json.details)).toContain('Profile names use letters, digits');
  });
});

describe('browser profiles and donated browsers', () => {
  let donor: Awaited<ReturnType<typeof startPairedDonor>> | undefined;
  afterAll(async () => {
    await donor?.donor.close();
  });

  it("run on a launched browser, never on the team's donated one, and never take its owner's login", async () => {
    donor = await startPairedDonor({
      tabhive,
      donation: { enabled: true, allowedDomains: ['localhost'], maxTabs: 2, allowJavascript: true },
      cookies: [{ ...MEMBER_COOKIE, url: members.url('localhost', '/'), httpOnly: true, sameSite: 'Lax' }],
    });
    const membersPage = members.url('localhost', '/members');
    // Without a profile, the team's donated browser takes the page, logged in as its owner.
    expect((await scrape({ url: membersPage, maxAge: 0 })).markdown).toContain(MEMBERS_ONLY_TEXT);

    const profiled = await scrape({ url: membersPage, profile: { name: 'donor-free' } });
    expect(profiled.markdown).toContain(LOGIN_TEXT);
    expect(profiled.metadata.proxyUsed).toBe('basic');
    expect(
      (await tabhive.tabhive.stores.browserProfiles.load('default', 'donor-free')).state.cookies,
    ).toEqual([]);
  });
});
