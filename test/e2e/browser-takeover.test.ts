import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BROWSERS_PATH } from '../../shared/api/tabhive/browser-pairing';
import { startPairedDonor } from '../helpers/paired-donor';
import { EXTENSION_ID } from '../../shared/extension-identity';
import { HUB_PATH } from '../../shared/protocol/messages';
import type { UiStatus } from '../../extension/ui/ui-messages';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * C1 of the red-team report: a web page that gets a launch link opened (a `target=_blank` click,
 * `window.open`, a script navigating the tab) must never change which server a browser serves,
 * neither a launched pool browser nor a person's paired browser. The attacker's page and its
 * "hub" listen on 127.0.0.2; the hub counts every socket a browser opens to it.
 */

const ATTACKER_ADDRESS = '127.0.0.2';

let attackerHub: WebSocketServer;
const attackerHubConnections: string[] = [];
let attackerSite: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

const attackerHubUrl = () =>
  `ws://${ATTACKER_ADDRESS}:${(attackerHub.address() as AddressInfo).port}${HUB_PATH}`;
const siteUrl = (pathname: string) =>
  `http://${ATTACKER_ADDRESS}:${(attackerSite.address() as AddressInfo).port}${pathname}`;
/** The start-page link launched browsers once took their settings from. */
const launchLink = (server: string, token = 'evil-click') =>
  `chrome-extension://${EXTENSION_ID}/launch.html#${new URLSearchParams({ server, token, class: 'basic' })}`;

beforeAll(async () => {
  attackerHub = new WebSocketServer({ host: ATTACKER_ADDRESS, port: 0 });
  attackerHub.on('connection', (socket, request) => {
    attackerHubConnections.push(request.headers.origin ?? '');
    socket.on('message', () => undefined);
  });
  await new Promise((resolve) => attackerHub.once('listening', resolve));
  attackerSite = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://attacker');
    const to = url.searchParams.get('to') ?? '';
    const page = (body: string) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html><head><title>Prize</title></head><body>${body}</body></html>`);
    switch (url.pathname) {
      case '/blank-link':
        page(
          `<h1>Claim your prize</h1><a id="a" target="_blank" href="${to.replaceAll('"', '&quot;')}">claim</a>`,
        );
        return;
      case '/open-on-click':
        page(
          `<h1>Claim your prize</h1><button id="a">claim</button>` +
            `<script>document.getElementById('a').onclick = () => window.open(${JSON.stringify(to)});</script>`,
        );
        return;
      case '/navigate':
        page(
          `<h1>Moving</h1><script>setTimeout(() => { location.href = ${JSON.stringify(to)}; }, 50);</script>`,
        );
        return;
      default:
        page('<h1>Attacker home</h1>');
    }
  });
  await new Promise<void>((resolve) => attackerSite.listen(0, ATTACKER_ADDRESS, resolve));
  tabhive = await startTestTabhive({ browsers: 1 });
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise((resolve) => attackerSite?.close(resolve));
  for (const client of attackerHub?.clients ?? []) client.terminate();
  await new Promise((resolve) => attackerHub?.close(resolve));
});

const poolBrowserIds = () => tabhive.tabhive.hub.browserStatuses().map((status) => status.browserId);

describe('a launched pool browser', () => {
  const vectors = [
    { name: 'a target=_blank link clicked by an action', path: '/blank-link', actions: true },
    { name: 'window.open from a clicked button', path: '/open-on-click', actions: true },
    { name: 'a script navigating the tab', path: '/navigate', actions: false },
  ];
  for (const vector of vectors) {
    it(`keeps serving its own server after ${vector.name} to a launch link`, async () => {
      const before = poolBrowserIds();
      expect(before).toHaveLength(1);
      // Both launch links at once, each in a tab of its own: the wait below starts after both.
      await Promise.all(
        [attackerHubUrl(), `ws://${new URL(tabhive.url).host}${HUB_PATH}`].map((server) =>
          tabhive.post('/v2/scrape', {
            url: `${siteUrl(vector.path)}?to=${encodeURIComponent(launchLink(server))}`,
            maxAge: 0,
            formats: ['markdown'],
            ...(vector.actions
              ? {
                  actions: [
                    { type: 'click', selector: '#a' },
                    { type: 'wait', milliseconds: 1_500 },
                  ],
                }
              : { waitFor: 1_500 }),
          }),
        ),
      );
      // A hijacked worker reconnects within a second; give it three.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(attackerHubConnections).toEqual([]);
      // Same browser, same socket: neither taken over nor knocked off with a spent token.
      expect(poolBrowserIds()).toEqual(before);
      const { status, json } = await tabhive.post('/v2/scrape', {
        url: siteUrl('/'),
        maxAge: 0,
        formats: ['markdown'],
        actions: [{ type: 'wait', milliseconds: 10 }],
      });
      expect(status).toBe(200);
      expect(json.data.markdown).toContain('Attacker home');
    });
  }
});

describe("a person's paired browser", () => {
  let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;
  afterAll(async () => {
    await donor?.close();
  });

  it('stays paired with its team when a page it shows opens a launch link', async () => {
    const poolIds = poolBrowserIds();
    const paired = await startPairedDonor({
      tabhive,
      donation: { enabled: true, allowedDomains: ['localhost'], maxTabs: 1, allowJavascript: false },
    });
    donor = paired.donor;
    const donorId = poolBrowserIds().find((id) => !poolIds.includes(id));
    expect(donorId).toBeDefined();

    // The person clicks one link on a web page.
    const web = await donor.context.newPage();
    await web.goto(`${siteUrl('/blank-link')}?to=${encodeURIComponent(launchLink(attackerHubUrl()))}`);
    await web.click('#a');
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    expect(attackerHubConnections).toEqual([]);
    const status = await paired.ask<UiStatus>({ type: 'getStatus' });
    expect(status).toMatchObject({ origin: 'paired', team: 'Default team' });
    expect(tabhive.tabhive.hub.connectedBrowsers()).toBe(2);
    expect(poolBrowserIds()).toContain(donorId);
    const { json: listed } = await tabhive.get(BROWSERS_PATH);
    expect(listed.browsers[0]).toMatchObject({ connected: true });
  });
});
