import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_SECRET, startInternalService } from '../helpers/internal-service';
import { minimalPdf } from '../helpers/minimal-pdf';
import { startTestTabhive } from '../helpers/start-test-tabhive';
import { stubLookup } from '../helpers/stub-lookup';

/**
 * The PDF re-fetch SSRF (red-team finding C2). A tab whose document claims to be a PDF used to
 * have its bytes fetched again by the extension's worker, outside the tab's URL-policy rules and
 * address guard, following redirects: the attacker's site answered the tab with a "PDF" that was
 * not one and the re-fetch with a redirect to an internal service, whose answer came back to the
 * caller. The attacker's site is on the one private address the operator allowed (standing in for
 * a public site); the internal service is on loopback and counts every connection.
 */

const ATTACKER_ADDRESS = '127.0.0.2';
/** A name the server's DNS calls public and the browser's lands on loopback (DNS rebinding). */
const REBINDING_NAME = 'rebind.test';
const FAKE_PDF_TEXT = 'NOT-A-PDF-BUT-WHAT-THE-TAB-GOT';
const PRIVATE_PDF_TEXT = 'PRIVATE-PDF-SECRET';
/** Just over what a task may send (MAX_PDF_BASE64_CHARS, 40 Mi base64 characters). */
const HUGE_PDF_BYTES = 31 * 1024 * 1024;

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * The attacker's site. `/pdf?to=` answers a document request (the tab), and the server's own
 * fetch (no Sec-Fetch headers), with a "PDF" that is not one; any other request, which is what
 * the extension's re-fetch was, with a redirect to `to`.
 */
async function startAttackerSite() {
  const hits: Hit[] = [];
  const pdf = minimalPdf(['A public PDF, really one.']);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://attacker');
    hits.push({ path: url.pathname, headers: request.headers });
    const dest = request.headers['sec-fetch-dest'];
    switch (url.pathname) {
      case '/pdf':
        if (dest === undefined || dest === 'document') {
          response
            .writeHead(200, { 'content-type': 'application/pdf' })
            .end(`${' '.repeat(2000)}${FAKE_PDF_TEXT}`);
        } else {
          response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
        }
        return;
      case '/report.pdf':
        response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf);
        return;
      case '/compressed.pdf':
        response
          .writeHead(200, { 'content-type': 'application/pdf', 'content-encoding': 'gzip' })
          .end(gzipSync(pdf));
        return;
      case '/attachment.pdf':
        response
          .writeHead(200, {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="report.pdf"',
          })
          .end(pdf);
        return;
      case '/moved.pdf':
        response.writeHead(302, { location: '/report.pdf' }).end();
        return;
      case '/huge.pdf':
        response
          .writeHead(200, { 'content-type': 'application/pdf', 'content-length': HUGE_PDF_BYTES })
          .end(Buffer.alloc(HUGE_PDF_BYTES, 0x20));
        return;
      default:
        response.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, ATTACKER_ADDRESS, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    hits,
    url: (path: string) => `http://${ATTACKER_ADDRESS}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An internal service that serves a real PDF, on loopback. */
async function startPrivatePdfService() {
  const pdf = minimalPdf([PRIVATE_PDF_TEXT]);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let internal: Awaited<ReturnType<typeof startInternalService>>;
let privatePdf: Awaited<ReturnType<typeof startPrivatePdfService>>;
let site: Awaited<ReturnType<typeof startAttackerSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  internal = await startInternalService();
  privatePdf = await startPrivatePdfService();
  site = await startAttackerSite();
  tabhive = await startTestTabhive({
    env: { ALLOW_PRIVATE_NETWORKS: 'false', ALLOWED_PRIVATE_HOSTS: ATTACKER_ADDRESS },
    lookup: stubLookup({ [REBINDING_NAME]: ['93.184.215.14'] }).lookup,
    extraChromeArgs: [`--host-resolver-rules=MAP ${REBINDING_NAME} 127.0.0.1`],
  });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await privatePdf?.close();
  await internal?.close();
});

afterEach(() => {
  const { connections, requests } = internal.takeCounts();
  expect(requests, 'requests that reached the internal service').toEqual([]);
  expect(connections, 'connections the internal service accepted').toBe(0);
  site.hits.length = 0;
});

const decoded = (markdown: unknown) => Buffer.from(String(markdown), 'base64').toString('latin1');
/** Requests the browser made to the attacker's site other than the tab's documents (and its icon). */
const browserRequestsBesidesDocuments = () =>
  site.hits.filter(
    (hit) =>
      hit.headers['sec-fetch-dest'] !== undefined &&
      hit.headers['sec-fetch-dest'] !== 'document' &&
      hit.path !== '/favicon.ico',
  );

describe('a document that claims to be a PDF', () => {
  const secretUrl = () => `http://127.0.0.1:${internal.port}/pdf-secret`;

  it('comes back as the bytes the tab received, and nothing is fetched again', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: site.url(`/pdf?to=${encodeURIComponent(secretUrl())}`),
      parsers: [],
      formats: ['markdown'],
      maxAge: 0,
    });
    expect(status).toBe(200);
    expect(decoded(json.data.markdown)).toContain(FAKE_PDF_TEXT);
    expect(JSON.stringify(json)).not.toContain(INTERNAL_SECRET);
    expect(decoded(json.data.markdown)).not.toContain(INTERNAL_SECRET);
    expect(browserRequestsBesidesDocuments().filter((hit) => hit.path === '/pdf')).toEqual([]);
  });

  it.each([
    ['the caller’s headers', { headers: { 'Metadata-Flavor': 'Google', 'X-Secret': 'caller' } }],
    ['a loopback name', { to: 'http://localhost:{P}/computeMetadata/v1/' }],
    ['IPv6 loopback', { to: 'http://[::1]:{P}/pdf-secret' }],
  ])('does not reach the internal service with %s', async (_name, variant) => {
    const to = ('to' in variant ? variant.to : 'http://127.0.0.1:{P}/pdf-secret').replace(
      '{P}',
      String(internal.port),
    );
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: site.url(`/pdf?to=${encodeURIComponent(to)}`),
      parsers: [],
      formats: ['markdown'],
      maxAge: 0,
      ...('headers' in variant ? { headers: variant.headers } : {}),
    });
    expect(status).toBe(200);
    expect(decoded(json.data.markdown)).toContain(FAKE_PDF_TEXT);
    expect(decoded(json.data.markdown)).not.toContain(INTERNAL_SECRET);
  });

  it('does not reach the internal service through /v1/scrape with parsePDF off', async () => {
    const { status, json } = await tabhive.post('/v1/scrape', {
      url: site.url(`/pdf?to=${encodeURIComponent(secretUrl())}`),
      formats: ['markdown'],
      parsePDF: false,
    });
    expect(status).toBe(200);
    expect(decoded(json.data.markdown)).toContain(FAKE_PDF_TEXT);
    expect(JSON.stringify(json)).not.toContain(INTERNAL_SECRET);
  });
});

describe('a real PDF', () => {
  it.each(['/report.pdf', '/compressed.pdf', '/attachment.pdf', '/moved.pdf'])(
    'still comes back from %s, parsed or as its bytes, read from the tab’s own response',
    async (path) => {
      const parsed = await tabhive.post('/v2/scrape', {
        url: site.url(path),
        headers: { 'X-Caller': 'pdf' },
        maxAge: 0,
      });
      expect(parsed.status).toBe(200);
      expect(parsed.json.data.markdown).toContain('A public PDF, really one.');
      expect(parsed.json.data.metadata).toMatchObject({ numPages: 1, contentType: 'application/pdf' });

      const bytes = await tabhive.post('/v2/scrape', { url: site.url(path), parsers: [], maxAge: 0 });
      expect(decoded(bytes.json.data.markdown)).toMatch(/^%PDF-1\.4/);
      expect(decoded(bytes.json.data.markdown)).toContain('(A public PDF, really one.) Tj');
      // The extension asked for nothing beside the tab's own documents.
      expect(browserRequestsBesidesDocuments()).toEqual([]);
    },
  );

  it('is refused when larger than a task may send', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: site.url('/huge.pdf'),
      headers: { 'X-Caller': 'pdf' },
      maxAge: 0,
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(json.error).toContain('larger than 30 MiB');
  });

  it('is refused, without its content, from a public-looking name that lands on loopback', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', {
      url: `http://${REBINDING_NAME}:${privatePdf.port}/secret.pdf`,
      parsers: [],
      maxAge: 0,
    });
    expect(status).toBe(403);
    expect(json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    expect(json.data).toBeUndefined();
    expect(JSON.stringify(json)).not.toContain(PRIVATE_PDF_TEXT);
  });
});
