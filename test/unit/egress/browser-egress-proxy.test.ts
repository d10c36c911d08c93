import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBrowserEgressProxy,
  type BrowserEgressProxy,
} from '../../../server/platform/browser-egress/start-browser-egress-proxy';
import { hostResolverRulesLookup } from '../../../server/platform/browser-egress/host-resolver-rules-lookup';
import { silentLog } from '../../../server/platform/log/log';
import { EGRESS_REFUSAL_HEADER } from '../../../shared/url/egress-refusal';
import { startRecordingProxy } from '../../helpers/recording-proxy';

/**
 * The launched browsers' egress proxy, driven the way Chromium drives it (absolute-form GETs and
 * CONNECT tunnels): an internal service on 127.0.0.1 must never see a connection, an allowed site
 * on 127.0.0.2 (ALLOWED_PRIVATE_HOSTS) is reached, and a name is connected to at exactly the
 * address that was checked.
 */

const ALLOWED = '127.0.0.2';

async function listen(host: string) {
  let connections = 0;
  const server = createServer((_request, response) => response.end(`served by ${host}`));
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    takeConnections: () => {
      const count = connections;
      connections = 0;
      return count;
    },
  };
}

let internal: Awaited<ReturnType<typeof listen>>;
let site: Server;
let sitePort: number;
let proxy: BrowserEgressProxy;
let lookups: string[] = [];
/** rebind.test answers the allowed address once, and loopback after that. */
let rebindAnswers = 0;

beforeAll(async () => {
  internal = await listen('127.0.0.1');
  // The allowed site listens on the internal service's port too, so that only the address decides.
  site = createServer((_request, response) => response.end('allowed site'));
  await new Promise<void>((resolve) => site.listen(internal.port, ALLOWED, resolve));
  sitePort = internal.port;
  proxy = await startBrowserEgressProxy({
    policy: { allowPrivateNetworks: false, allowedPrivateHosts: [ALLOWED] },
    log: silentLog,
    lookup: async (name) => {
      lookups.push(name);
      if (name === 'rebind.test') return (rebindAnswers += 1) === 1 ? [ALLOWED] : ['127.0.0.1'];
      if (name === 'inward.test') return ['127.0.0.1'];
      if (name === 'mixed.test') return [ALLOWED, '127.0.0.1'];
      if (name === 'site.test') return [ALLOWED];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    },
  });
});
afterAll(async () => {
  await proxy?.close();
  internal?.server.close();
  site?.close();
});

const proxyPort = () => Number(new URL(proxy.url).port);

/** An absolute-form GET through the proxy, as Chromium sends plain http:// requests. */
function get(url: string, through = proxy.url) {
  return new Promise<{ status: number; refusal: string | undefined; body: string }>((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: Number(new URL(through).port),
        path: url,
        headers: { host: new URL(url).host },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            refusal: response.headers[EGRESS_REFUSAL_HEADER] as string | undefined,
            body,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A CONNECT tunnel's status line, as Chromium opens one for https:, wss: and WebRTC's TURN over TCP. */
function tunnel(target: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(proxyPort(), '127.0.0.1', () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    socket.once('data', (data) => {
      resolve(data.toString().split('\r\n')[0] ?? '');
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

describe("the launched browsers' egress proxy", () => {
  it('refuses loopback, private and metadata literals with a 403 that names the refusal', async () => {
    for (const url of [
      `http://127.0.0.1:${internal.port}/`,
      `http://[::1]:${internal.port}/`,
      `http://[::ffff:127.0.0.1]:${internal.port}/`,
      `http://10.0.0.1:${internal.port}/`,
      `http://localhost:${internal.port}/`,
    ]) {
      expect(await get(url), url).toMatchObject({
        status: 403,
        refusal: expect.stringMatching(/^private-network; /),
      });
    }
    expect(await get('http://169.254.169.254/latest/meta-data/')).toMatchObject({
      status: 403,
      refusal: 'metadata; 169.254.169.254',
    });
    expect(internal.takeConnections()).toBe(0);
  });

  it('refuses a name when any of its addresses is refused, for requests and tunnels alike', async () => {
    expect(await get(`http://inward.test:${internal.port}/`)).toMatchObject({
      status: 403,
      refusal: 'private-network; 127.0.0.1',
    });
    expect(await get(`http://mixed.test:${internal.port}/`)).toMatchObject({ status: 403 });
    expect(await tunnel(`inward.test:${internal.port}`)).toMatch(/^HTTP\/1\.1 403 /);
    expect(await tunnel(`127.0.0.1:${internal.port}`)).toMatch(/^HTTP\/1\.1 403 /);
    expect(internal.takeConnections()).toBe(0);
  });

  it('reaches what the policy allows, by name and by address', async () => {
    expect(await get(`http://site.test:${sitePort}/`)).toMatchObject({ status: 200, body: 'allowed site' });
    expect(await get(`http://${ALLOWED}:${sitePort}/`)).toMatchObject({ status: 200, body: 'allowed site' });
    expect(await tunnel(`site.test:${sitePort}`)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('connects to the address it checked, not to a second answer of the name (DNS rebinding)', async () => {
    lookups = [];
    rebindAnswers = 0;
    expect(await get(`http://rebind.test:${sitePort}/first`)).toMatchObject({
      status: 200,
      body: 'allowed site',
    });
    // The name now answers loopback: refused, never connected.
    expect(await get(`http://rebind.test:${sitePort}/second`)).toMatchObject({ status: 403 });
    expect(lookups).toEqual(['rebind.test', 'rebind.test']);
    expect(internal.takeConnections()).toBe(0);
  });

  it('answers a name that does not resolve without connecting anywhere', async () => {
    expect((await get(`http://nowhere.test:${internal.port}/`)).status).toBe(502);
    expect(internal.takeConnections()).toBe(0);
  });
});

describe('the egress proxy DNS of tests that give browsers --host-resolver-rules', () => {
  it('answers mapped names by the rules and asks the fallback for the rest', async () => {
    const lookup = hostResolverRulesLookup(
      [
        '--headless',
        '--host-resolver-rules=MAP front.test 127.0.0.2, MAP *.nip.io 127.0.0.1, MAP gone.test ~NOTFOUND',
      ],
      async (name) => [`fallback:${name}`],
    );
    expect(lookup).toBeDefined();
    expect(await lookup!('front.test')).toEqual(['127.0.0.2']);
    expect(await lookup!('127.0.0.1.nip.io')).toEqual(['127.0.0.1']);
    expect(await lookup!('other.test')).toEqual(['fallback:other.test']);
    await expect(lookup!('gone.test')).rejects.toThrow(/ENOTFOUND/);
    expect(hostResolverRulesLookup(['--headless'], async () => [])).toBeUndefined();
  });
});

describe("a stealth browser's egress proxy, in front of the operator's upstream proxy", () => {
  it('sends what the policy allows on through the upstream, and refuses the rest before it', async () => {
    const upstream = await startRecordingProxy();
    const chained = await startBrowserEgressProxy({
      policy: { allowPrivateNetworks: false, allowedPrivateHosts: [ALLOWED] },
      log: silentLog,
      upstreamProxyUrl: upstream.url,
      lookup: async (name) => {
        if (name === 'inward.test') return ['127.0.0.1'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
      },
    });
    try {
      const through = (url: string) => get(url, chained.url);
      expect(await through(`http://${ALLOWED}:${sitePort}/`)).toMatchObject({
        status: 200,
        body: 'allowed site',
      });
      expect(await through(`http://127.0.0.1:${internal.port}/`)).toMatchObject({ status: 403 });
      expect(await through(`http://inward.test:${internal.port}/`)).toMatchObject({
        status: 403,
        refusal: 'private-network; 127.0.0.1',
      });
      expect(upstream.urls).toEqual([`http://${ALLOWED}:${sitePort}/`]);
      expect(internal.takeConnections()).toBe(0);
    } finally {
      await chained.close();
      await upstream.close();
    }
  });
});
