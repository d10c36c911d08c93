import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS_PATH } from '../../shared/api/tabhive/browser-pairing';
import type { ActivityEntry, UiStatus } from '../../extension/ui/ui-messages';
import { startExtensionBrowser } from '../helpers/extension-browser';
import { LOGIN_TEXT, MEMBERS_ONLY_TEXT, MEMBER_COOKIE, startMembersSite } from '../helpers/members-site';
import { addOtherTeam, startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/** What the test calls inside extension pages: run there by Playwright, only typed here. */
declare const chrome: {
  runtime: { sendMessage(message: unknown): Promise<unknown> };
  action: { getBadgeText(details: object): Promise<string> };
};

let site: Awaited<ReturnType<typeof startMembersSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;
/** An extension page of the donor's browser, standing in for the options page. */
let page: Page;
let browserId: string;
/** A second team's key: it never gets what the donor's login shows. */
let teamBKey: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are what the API sent; tests assert on their shape
async function scrape(apiKey: string, body: object): Promise<{ status: number; json: any }> {
  const response = await fetch(`${tabhive.url}/v2/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const ask = <T>(request: object): Promise<T> =>
  page.evaluate((message) => chrome.runtime.sendMessage(message), request) as Promise<T>;
const health = async () =>
  ((await (await fetch(`${tabhive.url}/health`)).json()) as { browsers: number }).browsers;
const cookiesSent = (host: string) =>
  site.hits
    .filter((hit) => hit.host.startsWith(host) && hit.path === '/members')
    .map((hit) => hit.headers.cookie ?? '');

beforeAll(async () => {
  site = await startMembersSite();
  tabhive = await startTestTabhive({ browsers: 1 });
  teamBKey = await addOtherTeam(tabhive);

  // A member's own Chromium: logged in to the members site, with the extension installed.
  donor = await startExtensionBrowser();
  await donor.context.addCookies([
    { ...MEMBER_COOKIE, url: site.url('localhost', '/'), httpOnly: true, sameSite: 'Lax' },
  ]);
  page = await donor.context.newPage();
  await page.goto(`chrome-extension://${donor.extensionId}/launch.html`);
});
afterAll(async () => {
  await donor?.close();
  await tabhive?.stop();
  await site?.close();
});

describe('a donated browser', () => {
  it('pairs with a one-time code from its team, on the terms its owner set', async () => {
    const unpaired = await ask<UiStatus>({ type: 'getStatus' });
    expect(unpaired.state).toBe('unpaired');
    await ask({
      type: 'saveDonation',
      settings: {
        enabled: true,
        allowedDomains: ['*.localhost', 'localhost'],
        maxTabs: 2,
        allowJavascript: false,
      },
    });
    const { json: code } = await tabhive.post(`${BROWSERS_PATH}/pairing-codes`, {});

    const paired = await ask<{ ok: boolean; status: UiStatus }>({
      type: 'pair',
      serverUrl: tabhive.url,
      code: code.code,
    });
    expect(paired.ok).toBe(true);
    expect(paired.status.problem).toBeUndefined();
    expect(paired.status).toMatchObject({ state: 'idle', origin: 'paired', team: 'Default team' });
    expect(paired.status.donation.allowedDomains).toEqual(['localhost']);
    expect(await health()).toBe(2);
    expect(await donor.worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('on');

    const { json: listed } = await tabhive.get(BROWSERS_PATH);
    expect(listed.browsers).toHaveLength(1);
    expect(listed.browsers[0]).toMatchObject({
      connected: true,
      allowedDomains: ['localhost'],
      allowJavascript: false,
    });
    browserId = listed.browsers[0].id;

    const reused = await ask<{ ok: boolean; problem: { code: string } }>({
      type: 'pair',
      serverUrl: tabhive.url,
      code: code.code,
    });
    expect(reused).toMatchObject({ ok: false, problem: { code: 'code-invalid' } });
  });

  it("scrapes the members-only page for its team with its owner's login", async () => {
    const { status, json } = await scrape(tabhive.apiKey, {
      url: site.url('localhost', '/members'),
      formats: ['markdown'],
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain(MEMBERS_ONLY_TEXT);
    expect(cookiesSent('localhost')).toEqual([`${MEMBER_COOKIE.name}=${MEMBER_COOKIE.value}`]);
  });

  it("never gives another team the members-only content: not by the browser, not from the team's cache", async () => {
    const { status, json } = await scrape(teamBKey, {
      url: site.url('localhost', '/members'),
      formats: ['markdown'],
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain(LOGIN_TEXT);
    expect(json.data.markdown).not.toContain(MEMBERS_ONLY_TEXT);
    expect(json.data.metadata.cacheState).toBe('miss');
    // Team B's page came from a pool browser, which has no login.
    expect(cookiesSent('localhost')).toHaveLength(2);
    expect(cookiesSent('localhost')[1]).toBe('');

    // Team A still reads its own copy, not the anonymous one team B's scrape left in the shared cache.
    const again = await scrape(tabhive.apiKey, {
      url: site.url('localhost', '/members'),
      formats: ['markdown'],
    });
    expect(again.json.data.markdown).toContain(MEMBERS_ONLY_TEXT);
    expect(again.json.data.metadata.cacheState).toBe('hit');
  });

  it('refuses executeJavascript for the team on the donated domain', async () => {
    const before = site.hits.length;
    const { status, json } = await scrape(tabhive.apiKey, {
      url: site.url('localhost', '/members'),
      formats: ['markdown'],
      maxAge: 0,
      actions: [{ type: 'executeJavascript', script: 'return document.cookie' }],
    });
    expect(status).toBe(403);
    expect(json).toMatchObject({ success: false, code: 'DONATED_BROWSER_REFUSED' });
    expect(json.error).toContain('executeJavascript');
    expect(site.hits.length).toBe(before);
  });

  it('is not sent URLs outside the domains its owner allows', async () => {
    const { status, json } = await scrape(tabhive.apiKey, {
      url: site.url('127.0.0.1', '/members'),
      formats: ['markdown'],
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain(LOGIN_TEXT);
    expect(cookiesSent('127.0.0.1')).toEqual(['']);
  });

  it('keeps an activity log of the tasks it ran', async () => {
    const { entries } = await ask<{ entries: ActivityEntry[] }>({ type: 'getActivity' });
    expect(entries).toEqual([
      expect.objectContaining({
        url: site.url('localhost', '/members'),
        team: 'Default team',
        outcome: 'ok',
      }),
    ]);
  });

  it("leaves media out of a text capture in the task's tab, and loads it when asked", async () => {
    const badgeRequests = () => site.hits.filter((hit) => hit.path === '/guild-badge.png').length;
    const before = badgeRequests();
    const text = await scrape(tabhive.apiKey, { url: site.url('localhost', '/members'), maxAge: 0 });
    expect(text.status).toBe(200);
    expect(badgeRequests()).toBe(before);
    const loaded = await scrape(tabhive.apiKey, {
      url: site.url('localhost', '/members'),
      maxAge: 0,
      blockMedia: false,
    });
    expect(loaded.status).toBe(200);
    expect(badgeRequests()).toBeGreaterThan(before);
  });

  it('is disconnected within seconds when its team revokes it, and says so', async () => {
    const revokedAt = Date.now();
    const response = await fetch(`${tabhive.url}${BROWSERS_PATH}/${browserId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(response.status).toBe(200);
    await waitUntil(async () => (await health()) === 1, 5_000, 'the donated browser to leave');
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    await expect
      .poll(async () => (await ask<UiStatus>({ type: 'getStatus' })).problem?.code, { timeout: 5_000 })
      .toBe('revoked');
    expect(await ask<UiStatus>({ type: 'getStatus' })).toMatchObject({ state: 'disconnected' });
    expect(await donor.worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('off');

    // Team A's scrape of the members page now runs anonymously on the pool.
    const { json } = await scrape(tabhive.apiKey, {
      url: site.url('localhost', '/members'),
      formats: ['markdown'],
      maxAge: 0,
    });
    expect(json.data.markdown).toContain(LOGIN_TEXT);
  });
});
