import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { startExtensionBrowser } from '../helpers/extension-browser';
import { startInternalService } from '../helpers/internal-service';
import { startPairedDonor } from '../helpers/paired-donor';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * M1 of the red-team report on a person's donated browser, which has no egress proxy: a caller's
 * executeJavascript runs in an isolated world, where WebRTC's TURN over TCP would reach a port on
 * the person's machine or network that no network rule sees. The isolated world has no WebRTC,
 * nor do frame windows taken through their elements. The owner allows scripts on `localhost`;
 * the internal service (a canary) listens on 127.0.0.1 and counts connections.
 */

let internal: Awaited<ReturnType<typeof startInternalService>>;
let fenced: Server;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let donor: Awaited<ReturnType<typeof startExtensionBrowser>>;

const fencedUrl = (pathname: string) =>
  `http://localhost:${(fenced.address() as AddressInfo).port}${pathname}`;

/** Gathers ICE through a TURN server over TCP at the canary, with the constructor `from` gives. */
const turnProbe = (from: string) =>
  `let Peer; ${from}; if (typeof Peer !== 'function') return 'no WebRTC';` +
  ` const peer = new Peer({ iceServers: [{ urls: 'turn:127.0.0.1:${internal.port}?transport=tcp', username: 'u', credential: 'p' }], iceTransportPolicy: 'relay' });` +
  ` peer.createDataChannel('x'); await peer.setLocalDescription(await peer.createOffer());` +
  ` await new Promise((resolve) => setTimeout(resolve, 2000)); peer.close(); return 'gathered';`;

beforeAll(async () => {
  internal = await startInternalService();
  fenced = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><html><body><h1>Allowed page</h1></body></html>');
  });
  await new Promise<void>((resolve) => fenced.listen(0, '127.0.0.1', resolve));
  tabhive = await startTestTabhive({ browsers: 0 });
  ({ donor } = await startPairedDonor({
    tabhive,
    donation: { enabled: true, allowedDomains: ['localhost'], maxTabs: 1, allowJavascript: true },
  }));
});
afterAll(async () => {
  await donor?.close();
  await tabhive?.stop();
  await new Promise((resolve) => fenced?.close(resolve));
  await internal?.close();
});

afterEach(() => {
  const { connections } = internal.takeCounts();
  expect(connections, 'connections the internal service accepted').toBe(0);
});

describe("a caller's script on a donated browser", () => {
  const probes = {
    'its own world': 'Peer = globalThis.RTCPeerConnection',
    "a new frame's contentWindow":
      "const frame = document.createElement('iframe'); document.body.append(frame); Peer = frame.contentWindow.RTCPeerConnection",
    "a new frame's contentDocument":
      "const frame = document.createElement('iframe'); document.body.append(frame); Peer = frame.contentDocument.defaultView.RTCPeerConnection",
  };
  for (const [name, from] of Object.entries(probes)) {
    it(`has no WebRTC in ${name}`, async () => {
      const { status, json } = await tabhive.post('/v2/scrape', {
        url: fencedUrl('/'),
        maxAge: 0,
        formats: ['markdown'],
        actions: [{ type: 'executeJavascript', script: turnProbe(from) }],
      });
      expect(status).toBe(200);
      expect(json.data.actions.javascriptReturns[0]).toEqual({ type: 'string', value: 'no WebRTC' });
    });
  }
});
