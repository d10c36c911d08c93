import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKER_ONLY_ENV, startAttackerSite } from '../helpers/attacker-site';
import { expectNothingReached, startInternalService } from '../helpers/internal-service';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * H2 and M1 of the red-team report, in a launched pool browser with private networks refused: a
 * page whose click opens a popup, or whose service worker fetches, must not reach the internal
 * service (a canary on 127.0.0.1), and no popup may outlive its task. The attacker's page is on
 * 127.0.0.2, the one private address the operator allowed (it stands in for a public site).
 */

let internal: Awaited<ReturnType<typeof startInternalService>>;
let attacker: Awaited<ReturnType<typeof startAttackerSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

const target = (pathname: string) => `http://127.0.0.1:${internal.port}${pathname}`;

beforeAll(async () => {
  internal = await startInternalService();
  attacker = await startAttackerSite('Attacker', ({ url, page, response }) => {
    switch (url.pathname) {
      case '/blank-link':
        page(`<h1>Links</h1><a id="a" target="_blank" href="${target('/popup-link')}">go</a>`);
        return;
      case '/noopener-link':
        page(
          `<h1>Links</h1><a id="a" rel="noopener noreferrer" target="_blank" href="${target('/popup-noopener')}">go</a>`,
        );
        return;
      case '/open-on-click':
        page(
          `<h1>Button</h1><button id="a">go</button><script>document.getElementById('a').onclick = ` +
            `() => window.open(${JSON.stringify(target('/popup-open'))}, 'x', 'width=400');</script>`,
        );
        return;
      case '/worker':
        page(
          `<h1>Service worker</h1><script>navigator.serviceWorker.register('/sw.js')` +
            `.then(() => document.body.insertAdjacentHTML('beforeend', '<p>registered</p>'))</script>`,
        );
        return;
      case '/webrtc': {
        // A TURN server over TCP at the internal address: ICE gathering connects to it. `frame`
        // takes the constructor from a fresh same-origin iframe instead of the page's own window.
        const fromFrame = url.searchParams.has('frame');
        page(
          `<h1>Call</h1><p id="out">not started</p><script>(async () => {` +
            `let Peer = window.RTCPeerConnection;` +
            (fromFrame
              ? `const frame = document.createElement('iframe'); document.body.append(frame); Peer = frame.contentWindow.RTCPeerConnection;`
              : '') +
            `try { const peer = new Peer({ iceServers: [{ urls: 'turn:127.0.0.1:${internal.port}?transport=tcp', username: 'u', credential: 'p' }], iceTransportPolicy: 'relay' });` +
            ` peer.createDataChannel('x'); await peer.setLocalDescription(await peer.createOffer());` +
            ` document.getElementById('out').textContent = 'gathering'; } catch (err) { document.getElementById('out').textContent = 'no WebRTC: ' + err; }` +
            `})();</script>`,
        );
        return;
      }
      case '/sw.js':
        response
          .writeHead(200, { 'content-type': 'text/javascript' })
          .end(
            `self.addEventListener('install', (event) => event.waitUntil(fetch(${JSON.stringify(target('/sw-install'))}).catch(() => undefined)));` +
              `self.addEventListener('activate', (event) => event.waitUntil(fetch(${JSON.stringify(target('/sw-activate'))}, { mode: 'no-cors' }).catch(() => undefined)));`,
          );
        return;
      default:
        page('<h1>Home</h1>');
    }
  });
  tabhive = await startTestTabhive({ browsers: 1, env: ATTACKER_ONLY_ENV });
});
afterAll(async () => {
  await tabhive?.stop();
  await attacker?.close();
  await internal?.close();
});

afterEach(() => expectNothingReached(internal));

/** Windows the browser holds beyond its idle warm tabs (its start page's is one), as reported after tasks. */
async function windowsHeld(): Promise<number> {
  const [status] = tabhive.tabhive.hub.browserStatuses();
  return status?.status?.windows ?? -1;
}

describe('a launched browser', () => {
  for (const path of ['/blank-link', '/noopener-link', '/open-on-click']) {
    it(`neither loads nor keeps a popup opened by a click (${path})`, async () => {
      const { status, json } = await tabhive.post('/v2/scrape', {
        url: attacker.url(path),
        maxAge: 0,
        formats: ['markdown'],
        actions: [
          { type: 'click', selector: '#a' },
          { type: 'wait', milliseconds: 1_500 },
        ],
      });
      expect(status).toBe(200);
      expect(json.data.markdown).not.toContain('INTERNAL-SECRET');
      // The popup is closed: once the task is done the browser holds only its start window.
      await waitUntil(async () => (await windowsHeld()) === 1, 10_000, 'the browser to hold no task window');
    });
  }

  it("refuses a service worker's requests to private addresses", async () => {
    const { status } = await tabhive.post('/v2/scrape', {
      url: attacker.url('/worker'),
      maxAge: 0,
      formats: ['markdown'],
      waitFor: 2_000,
    });
    expect(status).toBe(200);
  });

  for (const path of ['/webrtc', '/webrtc?frame']) {
    it(`gives pages no WebRTC to probe private ports with (${path})`, async () => {
      const { status } = await tabhive.post('/v2/scrape', {
        url: attacker.url(path),
        maxAge: 0,
        formats: ['markdown'],
        waitFor: 2_000,
      });
      expect(status).toBe(200);
    });
  }

  it('still serves the hub and allowed pages after all that', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: attacker.url('/'),
      maxAge: 0,
      formats: ['markdown'],
      waitFor: 100,
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Home');
    expect(tabhive.tabhive.hub.connectedBrowsers()).toBe(1);
  });
});
