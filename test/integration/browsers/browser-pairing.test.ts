import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSERS_PATH,
  PAIR_PATH,
  SAVED_PAGES_PATH,
  UNPAIR_PATH,
} from '../../../shared/api/tabhive/browser-pairing';
import { HUB_PATH, HubCloseCode, type DonationTerms } from '../../../shared/protocol/messages';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';

const terms: DonationTerms = {
  enabled: true,
  allowedDomains: ['members.test'],
  maxTabs: 2,
  allowJavascript: false,
};

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let hubUrl: string;

beforeAll(async () => {
  tabhive = await startTestTabhive({ browsers: 0 });
  hubUrl = `${tabhive.url.replace(/^http/, 'ws')}${HUB_PATH}`;
});
afterAll(async () => tabhive?.stop());

async function pair(code: string, label = 'laptop') {
  const response = await fetch(`${tabhive.url}${PAIR_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, label }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body is what the API sent; tests assert on it
  return { status: response.status, json: (await response.json()) as any };
}

async function newCode(): Promise<string> {
  const { status, json } = await tabhive.post(`${BROWSERS_PATH}/pairing-codes`, {});
  expect(status).toBe(201);
  expect(Date.parse(json.expiresAt)).toBeGreaterThan(Date.now());
  return json.code as string;
}

async function connectDonated(deviceToken: string, donation: DonationTerms = terms) {
  const browser = await connectFakeBrowser(hubUrl);
  browser.hello(deviceToken, { donation });
  return browser;
}

describe('pairing donated browsers', () => {
  it('exchanges a one-time code for a device token that connects the browser to its team', async () => {
    const code = await newCode();
    const paired = await pair(code.toLowerCase().replaceAll('-', ' '));
    expect(paired.status).toBe(200);
    expect(paired.json).toMatchObject({ success: true, team: { id: 'default' } });
    expect(paired.json.deviceToken).toMatch(/^thd_/);

    const browser = await connectDonated(paired.json.deviceToken);
    const welcome = await browser.next('welcome');
    expect(welcome).toMatchObject({ browserId: paired.json.browserId, maxConcurrentTasks: 2 });
    expect(welcome.team?.id).toBe('default');
    expect((await tabhive.get('/health')).json.browsers).toBe(1);

    const listed = await tabhive.get(BROWSERS_PATH);
    expect(listed.json.browsers).toEqual([
      expect.objectContaining({
        id: paired.json.browserId,
        label: 'laptop',
        connected: true,
        allowedDomains: ['members.test'],
        allowJavascript: false,
        revokedAt: null,
      }),
    ]);
    // Only digests are kept: the token appears nowhere in what the team can read.
    expect(JSON.stringify(listed.json)).not.toContain(paired.json.deviceToken);

    const revokedAt = Date.now();
    const revoked = await fetch(`${tabhive.url}${BROWSERS_PATH}/${paired.json.browserId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(revoked.status).toBe(200);
    expect((await browser.closed).code).toBe(HubCloseCode.REVOKED);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    await waitUntil(
      async () => (await tabhive.get('/health')).json.browsers === 0,
      5_000,
      'the count to drop',
    );

    const again = await connectDonated(paired.json.deviceToken);
    expect((await again.closed).code).toBe(HubCloseCode.REVOKED);
  });

  it('spends a code once, and says when a code expired or never existed', async () => {
    const code = await newCode();
    expect((await pair(code)).status).toBe(200);
    const reused = await pair(code);
    expect(reused.status).toBe(400);
    expect(reused.json).toMatchObject({ success: false, code: 'PAIRING_CODE_INVALID' });
    expect((await pair('AAAA-BBBB-CCCC')).json.code).toBe('PAIRING_CODE_INVALID');

    const { stores } = tabhive.tabhive;
    await stores.pairingCodes.issue({ code: 'OLD0-CODE-GONE', teamId: 'default', ttlMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const expired = await pair('OLD0-CODE-GONE');
    expect(expired.status).toBe(410);
    expect(expired.json).toMatchObject({ success: false, code: 'PAIRING_CODE_EXPIRED' });

    const malformed = await pair('');
    expect(malformed.status).toBe(400);
    expect(malformed.json.code).toBe('BAD_REQUEST');
  });

  it('needs the team key to make codes, list and revoke, and hides other teams\u2019 browsers', async () => {
    const anonymous = await fetch(`${tabhive.url}${BROWSERS_PATH}/pairing-codes`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const { stores } = tabhive.tabhive;
    await stores.browserRegistrations.register({
      _id: 'other-teams-browser',
      teamId: 'other',
      tokenDigest: 'not-a-real-digest',
      label: 'theirs',
      allowedDomains: [],
    });
    const revoke = await fetch(`${tabhive.url}${BROWSERS_PATH}/other-teams-browser`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    expect(revoke.status).toBe(404);
    expect((await revoke.json()) as unknown).toMatchObject({ success: false, code: 'BROWSER_NOT_FOUND' });
    expect((await stores.browserRegistrations.get('other-teams-browser'))?.revokedAt).toBeUndefined();
    const listed = await tabhive.get(BROWSERS_PATH);
    expect(listed.json.browsers.map((browser: { id: string }) => browser.id)).not.toContain(
      'other-teams-browser',
    );
  });

  it('disconnects a browser revoked through the store (another server instance) within seconds', async () => {
    const paired = await pair(await newCode());
    const browser = await connectDonated(paired.json.deviceToken);
    await browser.next('welcome');
    await tabhive.tabhive.stores.browserRegistrations.revoke(paired.json.browserId);
    const revokedAt = Date.now();
    expect((await browser.closed).code).toBe(HubCloseCode.REVOKED);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
  });

  it('lets a browser unpair itself with its device token, and refuses unknown tokens', async () => {
    const paired = await pair(await newCode());
    const browser = await connectDonated(paired.json.deviceToken);
    await browser.next('welcome');
    const unpaired = await fetch(`${tabhive.url}${UNPAIR_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${paired.json.deviceToken}` },
    });
    expect(unpaired.status).toBe(200);
    expect((await browser.closed).code).toBe(HubCloseCode.REVOKED);
    const unknown = await fetch(`${tabhive.url}${UNPAIR_PATH}`, {
      method: 'POST',
      headers: { authorization: 'Bearer thd_nothing' },
    });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()) as unknown).toMatchObject({ code: 'DEVICE_TOKEN_INVALID' });

    const stranger = await connectFakeBrowser(hubUrl);
    stranger.hello('thd_never-issued', { donation: terms });
    expect((await stranger.closed).code).toBe(HubCloseCode.UNAUTHORIZED);
  });

  it("saves a page a person scraped by hand into the paired team's search index", async () => {
    const paired = await pair(await newCode());
    const save = (token: string, body: unknown) =>
      fetch(`${tabhive.url}${SAVED_PAGES_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const page = {
      url: 'https://members.test/swarm-list',
      title: 'Swarm list',
      markdown: '# Swarm list\n\nThe spring swarms, by apiary.',
    };
    expect((await save(paired.json.deviceToken, page)).status).toBe(201);
    const indexed = await tabhive.tabhive.stores.searchIndex.get('default', page.url);
    expect(indexed).toMatchObject({ title: 'Swarm list', source: 'donated' });

    const invalid = await save(paired.json.deviceToken, { ...page, url: 'file:///etc/passwd' });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()) as unknown).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    const stranger = await save('thd_never-issued', page);
    expect(stranger.status).toBe(401);
    expect((await stranger.json()) as unknown).toMatchObject({ code: 'DEVICE_TOKEN_INVALID' });
  });
});
