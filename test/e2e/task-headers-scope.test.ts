import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestTabhive } from '../helpers/start-test-tabhive';
import { stubLookup } from '../helpers/stub-lookup';

/**
 * Caller headers stay with the caller's target (red-team finding M2): a page of `front.test`
 * (127.0.0.2) embeds images from its own subdomain and from a third party, `cdn.test`
 * (127.0.0.3), and redirects to that third party. Both addresses are the operator's allowed
 * private hosts, standing in for public sites; the browser and the server map the names to them.
 */

const FRONT_ADDRESS = '127.0.0.2';
const CDN_ADDRESS = '127.0.0.3';
const CALLER_HEADERS = { Authorization: 'Bearer CALLER-SECRET', 'X-Secret': 'caller-only' };
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

interface Hit {
  host: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** One server per address; every request is recorded with the Host it was sent to. */
async function startSite(address: string, page: (port: number, cdnPort: () => number) => string) {
  const hits: Hit[] = [];
  let cdnPort = 0;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    hits.push({ host: request.headers.host ?? '', path: url.pathname, headers: request.headers });
    if (url.pathname === '/page') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(port, () => cdnPort));
    } else if (url.pathname === '/to-cdn') {
      response.writeHead(302, { location: `http://cdn.test:${cdnPort}/landing` }).end();
    } else if (url.pathname === '/landing') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Landing on the CDN</h1>');
    } else if (url.pathname.endsWith('.png')) {
      response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    } else {
      response.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits,
    setCdnPort(value: number) {
      cdnPort = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let front: Awaited<ReturnType<typeof startSite>>;
let cdn: Awaited<ReturnType<typeof startSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  front = await startSite(
    FRONT_ADDRESS,
    (port, cdnPort) =>
      `<!doctype html><title>Front</title><h1>Front page</h1>` +
      `<img src="http://img.front.test:${port}/own.png">` +
      `<img src="http://cdn.test:${cdnPort()}/third-party.png">`,
  );
  cdn = await startSite(CDN_ADDRESS, () => '<h1>CDN</h1>');
  front.setCdnPort(cdn.port);
  cdn.setCdnPort(cdn.port);
  const names = {
    'front.test': [FRONT_ADDRESS],
    'www.front.test': [FRONT_ADDRESS],
    'img.front.test': [FRONT_ADDRESS],
    'cdn.test': [CDN_ADDRESS],
  };
  tabhive = await startTestTabhive({
    env: { ALLOW_PRIVATE_NETWORKS: 'false', ALLOWED_PRIVATE_HOSTS: `${FRONT_ADDRESS},${CDN_ADDRESS}` },
    lookup: stubLookup(names).lookup,
    extraChromeArgs: [
      `--host-resolver-rules=MAP front.test ${FRONT_ADDRESS}, MAP *.front.test ${FRONT_ADDRESS}, ` +
        `MAP cdn.test ${CDN_ADDRESS}`,
    ],
  });
});
afterAll(async () => {
  await tabhive?.stop();
  await front?.close();
  await cdn?.close();
});
beforeEach(() => {
  front.hits.length = 0;
  cdn.hits.length = 0;
});

const callerHeadersOf = (hit: Hit | undefined) => ({
  authorization: hit?.headers.authorization,
  'x-secret': hit?.headers['x-secret'],
});
const WITH = { authorization: CALLER_HEADERS.Authorization, 'x-secret': CALLER_HEADERS['X-Secret'] };
const WITHOUT = { authorization: undefined, 'x-secret': undefined };

describe('caller headers', () => {
  it('go to the target and its own subdomains, never to a third-party subresource', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: `http://www.front.test:${front.port}/page`,
      headers: CALLER_HEADERS,
      maxAge: 0,
      // The page's images are the probes: loaded, not answered by the media rules.
      blockMedia: false,
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Front page');
    const page = front.hits.find((hit) => hit.path === '/page');
    const own = front.hits.find((hit) => hit.path === '/own.png');
    const thirdParty = cdn.hits.find((hit) => hit.path === '/third-party.png');
    // The third party was asked: its request simply carried none of the caller's headers.
    expect(thirdParty, 'the third-party image request').toBeDefined();
    expect(callerHeadersOf(page)).toEqual(WITH);
    expect(own?.host).toBe(`img.front.test:${front.port}`);
    expect(callerHeadersOf(own)).toEqual(WITH);
    expect(callerHeadersOf(thirdParty)).toEqual(WITHOUT);
  });

  it('do not follow a redirect to another site', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: `http://front.test:${front.port}/to-cdn`,
      headers: CALLER_HEADERS,
      maxAge: 0,
    });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Landing on the CDN');
    expect(callerHeadersOf(front.hits.find((hit) => hit.path === '/to-cdn'))).toEqual(WITH);
    const landing = cdn.hits.find((hit) => hit.path === '/landing');
    expect(landing, 'the redirect target request').toBeDefined();
    expect(callerHeadersOf(landing)).toEqual(WITHOUT);
  });

  it.each(['Host', 'host', 'Connection', 'Transfer-Encoding', 'Proxy-Authorization', 'Content-Length'])(
    'may not include %s: 400, and nothing is fetched',
    async (name) => {
      for (const path of ['/v2/scrape', '/v1/scrape']) {
        const { status, json } = await tabhive.post(path, {
          url: `http://front.test:${front.port}/page`,
          headers: { [name]: 'internal-admin.corp' },
        });
        expect(status).toBe(400);
        expect(json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(JSON.stringify(json)).toContain(`cannot be set: ${name}`);
      }
      expect(front.hits).toEqual([]);
    },
  );
});
