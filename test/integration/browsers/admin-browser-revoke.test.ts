import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS_PATH, PAIR_PATH } from '../../../shared/api/tabhive/browser-pairing';
import { HUB_PATH, HubCloseCode } from '../../../shared/protocol/messages';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startTestTabhive } from '../../helpers/start-test-tabhive';

/** The admin revokes a team's donated browser as the team itself would (the console's button). */

const ADMIN_API_KEY = 'admin-key-for-browser-revoke-00001';
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  tabhive = await startTestTabhive({ browsers: 0, env: { ADMIN_API_KEY } });
});
afterAll(async () => tabhive?.stop());

const call = async (key: string, method: string, pathname: string) => {
  const response = await fetch(`${tabhive.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

describe("the admin's revocation of a donated browser", () => {
  it('disconnects it for good, and only under its own team', async () => {
    const code = (await tabhive.post(`${BROWSERS_PATH}/pairing-codes`, {})).json.code as string;
    const paired = (await (
      await fetch(`${tabhive.url}${PAIR_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, label: 'desk' }),
      })
    ).json()) as { browserId: string; deviceToken: string };
    const browser = await connectFakeBrowser(`${tabhive.url.replace(/^http/, 'ws')}${HUB_PATH}`);
    browser.hello(paired.deviceToken, {
      extensionVersion: '9.8.7',
      donation: { enabled: true, allowedDomains: ['members.test'], maxTabs: 1, allowJavascript: false },
    });
    await browser.next('welcome');

    const listed = (await call(ADMIN_API_KEY, 'GET', '/console/api/browsers')).json['data'];
    expect(listed).toEqual([
      expect.objectContaining({
        id: paired.browserId,
        kind: 'donated',
        teamId: 'default',
        extensionVersion: '9.8.7',
        userAgent: 'fake-browser',
        runningTasks: [],
        recentFailures: [],
      }),
    ]);

    const path = (team: string) => `/admin/v1/teams/${team}/browsers/${paired.browserId}`;
    expect((await call(tabhive.apiKey, 'DELETE', path('default'))).status).toBe(401);
    expect((await call(ADMIN_API_KEY, 'DELETE', path('someone-else'))).status).toBe(404);
    expect((await call(ADMIN_API_KEY, 'DELETE', '/admin/v1/teams/default/browsers/made-up')).status).toBe(
      404,
    );
    expect(await call(ADMIN_API_KEY, 'DELETE', path('default'))).toEqual({
      status: 200,
      json: { success: true },
    });
    expect((await browser.closed).code).toBe(HubCloseCode.REVOKED);
    const team = await tabhive.get(BROWSERS_PATH);
    expect(team.json.browsers).toEqual([
      expect.objectContaining({ id: paired.browserId, revokedAt: expect.any(String) }),
    ]);
    // Revoked for good: the same device token is turned away.
    const again = await connectFakeBrowser(`${tabhive.url.replace(/^http/, 'ws')}${HUB_PATH}`);
    again.hello(paired.deviceToken);
    expect((await again.closed).code).toBe(HubCloseCode.REVOKED);
  });
});
