import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKER_ADDRESS, ATTACKER_ONLY_ENV, startAttackerSite } from '../helpers/attacker-site';
import { expectNothingReached, INTERNAL_SECRET, startInternalService } from '../helpers/internal-service';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';
import { stubLookup } from '../helpers/stub-lookup';

/**
 * The launched browsers' egress proxy (server/platform/browser-egress/start-browser-egress-proxy.ts), in a Tabhive
 * with private networks refused: the attacker's site is on 127.0.0.2, the one private address the
 * operator allowed (it stands in for a public site), and `rebind.test` is a public-looking name
 * that resolves to loopback, where an internal service (a canary) counts every connection. Nothing
 * a page, its popups, its workers, a caller's script or a session's relay does may reach it.
 */

const REBINDING_NAME = 'rebind.test';

let internal: Awaited<ReturnType<typeof startInternalService>>;
let attacker: Awaited<ReturnType<typeof startAttackerSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

const rebound = (pathname: string) => `http://${REBINDING_NAME}:${internal.port}${pathname}`;

/**
 * A TURN server over TCP on `host`: ICE gathering connects to it. The constructor comes from a
 * fresh frame's window reached as `frames[0]`, which no script of the extension can take WebRTC
 * out of: the launch flags and the egress proxy are what refuse it.
 */
const turnProbe = (host: string) =>
  `const frame = document.createElement('iframe'); document.body.append(frame);` +
  ` const Peer = frames[frames.length - 1].RTCPeerConnection;` +
  ` const peer = new Peer({ iceServers: [{ urls: 'turn:${host}:' + PORT + '?transport=tcp', username: 'u', credential: 'p' }], iceTransportPolicy: 'relay' });` +
  ` peer.createDataChannel('x'); await peer.setLocalDescription(await peer.createOffer());` +
  ` await new Promise((resolve) => setTimeout(resolve, 2000)); peer.close(); return 'gathered';`;

beforeAll(async () => {
  internal = await startInternalService();
  attacker = await startAttackerSite('Attacker', ({ url, page, response }) => {
    switch (url.pathname) {
      case '/redirect':
        response.writeHead(302, { location: rebound('/redirected') }).end();
        return;
      case '/navigate':
        page(`<h1>Moving</h1><script>location.href = ${JSON.stringify(rebound('/navigated'))};</script>`);
        return;
      case '/subresources':
        page(
          `<h1>Images</h1><img src="${rebound('/image')}"><script>fetch(${JSON.stringify(rebound('/fetch'))}, { mode: 'no-cors' }).catch(() => undefined);</script>`,
        );
        return;
      case '/worker': {
        const source = `fetch(${JSON.stringify(rebound('/worker-fetch'))}, { mode: 'no-cors' }).catch(() => undefined);`;
        page(
          `<h1>Worker</h1><script>new Worker(URL.createObjectURL(new Blob([${JSON.stringify(source)}], { type: 'text/javascript' })));</script>`,
        );
        return;
      }
      case '/popup':
        page(`<h1>Links</h1><a id="a" target="_blank" href="${rebound('/popup')}">go</a>`);
        return;
      default:
        page('<h1>Home</h1>');
    }
  });
  tabhive = await startTestTabhive({
    browsers: 1,
    env: ATTACKER_ONLY_ENV,
    // A rebinding name: the allowed address when the server checks it (nothing listens there on
    // the internal service's port)...
    lookup: stubLookup({ [REBINDING_NAME]: [ATTACKER_ADDRESS] }).lookup,
    // ...and loopback when the browser connects: its egress proxy resolves by these rules.
    extraChromeArgs: [`--host-resolver-rules=MAP ${REBINDING_NAME} 127.0.0.1`],
  });
});
afterAll(async () => {
  await tabhive?.stop();
  await attacker?.close();
  await internal?.close();
});

afterEach(() => expectNothingReached(internal));

function expectBlocked(response: { status: number; json: unknown }) {
  expect(JSON.stringify(response.json)).not.toContain(INTERNAL_SECRET);
  expect(response.status).toBe(403);
  expect(response.json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
}

describe('a launched browser behind the egress proxy', () => {
  it('reaches the allowed site, so the refusals below are the policy and not a broken setup', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', { url: attacker.url('/'), maxAge: 0 });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Home');
  });

  it('refuses the rebinding name as a scrape URL in the browser', async () => {
    expectBlocked(await tabhive.post('/v2/scrape', { url: rebound('/direct'), maxAge: 0 }));
  });

  for (const path of ['/redirect', '/navigate', '/subresources', '/worker']) {
    it(`fails the task with URL_BLOCKED when a page sends the browser to the name (${path})`, async () => {
      expectBlocked(
        await tabhive.post('/v2/scrape', {
          url: attacker.url(path),
          maxAge: 0,
          formats: ['markdown'],
          waitFor: 1_000,
          timeout: 30_000,
          // Images are among the page's probes: loaded, not answered by the media rules.
          blockMedia: false,
        }),
      );
    });
  }

  it("gives a popup's first request nowhere to go", async () => {
    const response = await tabhive.post('/v2/scrape', {
      url: attacker.url('/popup'),
      maxAge: 0,
      formats: ['markdown'],
      actions: [
        { type: 'click', selector: '#a' },
        { type: 'wait', milliseconds: 1_500 },
      ],
    });
    expect(JSON.stringify(response.json)).not.toContain(INTERNAL_SECRET);
  });

  for (const host of ['127.0.0.1', REBINDING_NAME]) {
    it(`refuses WebRTC's TURN over TCP from a caller's script (${host})`, async () => {
      const response = await tabhive.post('/v2/scrape', {
        url: attacker.url('/'),
        maxAge: 0,
        formats: ['markdown'],
        actions: [
          {
            type: 'executeJavascript',
            script: `const PORT = ${internal.port}; ${turnProbe(host)}`,
          },
        ],
      });
      expect(JSON.stringify(response.json)).not.toContain(INTERNAL_SECRET);
    });
  }

  it("refuses a browser session's relay navigation to the name", async () => {
    const opened = await fetch(`${tabhive.url}/v2/browser`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tabhive.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ttl: 120 }),
    });
    const session = (await opened.json()) as { id: string; cdpUrl: string };
    expect(opened.status).toBe(200);
    const browser = await chromium.connectOverCDP(session.cdpUrl, {
      headers: { Authorization: `Bearer ${tabhive.apiKey}` },
    });
    try {
      const page = browser.contexts()[0]?.pages()[0];
      if (page === undefined) throw new Error('no page through the relay');
      await page.goto(rebound('/relay'), { timeout: 10_000 }).catch(() => undefined);
      // Once the address guard tripped the relay may refuse to read anything more: that is fine too.
      const text = await Promise.race([
        page.evaluate(() => document.body?.innerText ?? '').catch((err: Error) => `refused: ${err.message}`),
        new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 10_000)),
      ]);
      expect(text).not.toContain(INTERNAL_SECRET);
    } finally {
      await browser.close().catch(() => undefined);
      await fetch(`${tabhive.url}/v2/browser/${session.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${tabhive.apiKey}` },
      });
    }
  });

  it('still serves the hub and allowed pages after all that', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: attacker.url('/?again'),
      maxAge: 0,
      formats: ['markdown'],
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Home');
    await waitUntil(() => tabhive.tabhive.hub.connectedBrowsers() >= 1, 5_000, 'the browser on the hub');
  });
});
