import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/api/app';
import { DEFAULT_TEAM, createStaticKeyring } from '../../../server/platform/auth/keyring';
import { createApiServer } from '../../../server/api/http-server/create-api-server';
import { MAX_BODY_BYTES } from '../../../server/api/http/read-json-body';
import type { Log } from '../../../server/platform/log/log';
import { createPairingService } from '../../../server/browsers/pairing/create-pairing-service';
import { MAX_PAIR_BODY_BYTES } from '../../../server/api/routes/browser-routes';
import type { Scraper } from '../../../server/scrape/types/scraper';
import { waitUntil } from '../../helpers/start-test-tabhive';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/** Red-team finding L7: bodies that trickle in, or stop, before and after authentication. */
const API_KEY = 'fc-0123456789abcdef0123456789abcdef';
const embedded = useEmbeddedStores();

let lines: Array<{ level: string; message: string }> = [];
const log: Log = {
  // The access log's line per request has tests of its own (request-log.test.ts).
  info: (message) => void (message === 'request' || lines.push({ level: 'info', message })),
  warn: (message) => void lines.push({ level: 'warn', message }),
  error: (message) => void lines.push({ level: 'error', message }),
};
/** How long the fake scrape takes to answer, and what it throws. */
let scrapeMs = 0;
let scrapeError: Error | undefined;
const scraper: Scraper = {
  async scrape(request) {
    await new Promise((resolve) => setTimeout(resolve, scrapeMs));
    if (scrapeError !== undefined) throw scrapeError;
    return {
      markdown: '# ok',
      metadata: {
        sourceURL: request.url.raw,
        url: request.url.url,
        statusCode: 200,
        scrapeId: '5e1b3a70-0000-4000-8000-000000000000',
        creditsUsed: 1,
        proxyUsed: 'basic',
      },
    };
  },
};

let server: Server | undefined;
const sockets: Socket[] = [];

/** The whole app, on a server from createApiServer with these deadlines. */
async function serve(deadlines: Parameters<typeof createApiServer>[0] = {}): Promise<number> {
  lines = [];
  const { stores } = embedded;
  const app = createApp({
    log,
    keyring: createStaticKeyring([{ apiKey: API_KEY, team: DEFAULT_TEAM }]),
    scraper,
    results: stores.results,
    connectedBrowsers: () => 1,
    storeKind: 'embedded',
    pairing: {
      service: createPairingService({
        pairingCodes: stores.pairingCodes,
        registrations: stores.browserRegistrations,
        teams: stores.teams,
        disconnect: () => undefined,
      }),
      connectedIds: () => new Set(),
    },
  });
  server = createApiServer(deadlines);
  server.on('request', app.callback());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  scrapeMs = 0;
  scrapeError = undefined;
});

/**
 * A raw connection that sends `head` (request line and headers) and then whatever the test
 * writes; `answer` is everything the server sent once it closed the connection.
 */
async function rawRequest(port: number, head: string) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  return { socket, answer, received: () => received };
}

const post = (path: string, contentLength: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n${extra}\r\n`;

describe('bodies before authentication', () => {
  it('refuses an unauthenticated pairing that declares a huge body with 413 at once, and closes', async () => {
    const port = await serve();
    // The headers alone: the 413 must not wait for a body that is never coming.
    const { answer } = await rawRequest(port, post('/tabhive/v1/browsers/pair', 10_000_000));
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/connection: close/i);
    expect(text).toContain(`Request body is larger than ${MAX_PAIR_BODY_BYTES} bytes`);
  });

  it('reads a pairing body of ordinary size (and refuses an unknown code as before)', async () => {
    const port = await serve();
    const response = await fetch(`http://127.0.0.1:${port}/tabhive/v1/browsers/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'ABCD-EFGH-JKLM', label: 'Laptop' }),
    });
    expect(response.status).toBe(400);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  });
});

describe('aborted and slow bodies', () => {
  it('logs an upload the client gave up on at info level, not as an unhandled error', async () => {
    const port = await serve();
    const arrived = new Promise((resolve) => server!.once('request', resolve));
    const { socket } = await rawRequest(
      port,
      post('/v2/scrape', 1_000, `Authorization: Bearer ${API_KEY}\r\n`) + '{"url":"https://exa',
    );
    await arrived;
    socket.destroy();
    await waitUntil(() => lines.length > 0, 5_000, 'a log line about the aborted request');
    expect(lines).toEqual([{ level: 'info', message: 'request aborted before it was read' }]);
  });

  it('cuts off a body that trickles in past the request deadline, quietly', async () => {
    const port = await serve({ requestTimeoutMs: 400 });
    const { socket, answer } = await rawRequest(port, post('/tabhive/v1/browsers/pair', 100) + '{"code":');
    // One more byte now and then keeps the socket busy, never done.
    const trickle = setInterval(() => socket.write(' '), 100);
    try {
      expect(await answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
    }
    await waitUntil(() => lines.length > 0, 5_000, 'a log line about the cut-off request');
    expect(lines).toEqual([{ level: 'info', message: 'request aborted before it was read' }]);
  });

  it('still answers 500 for an error of its own that only looks like a reset, once the request is in', async () => {
    const port = await serve();
    scrapeError = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const response = await fetch(`http://127.0.0.1:${port}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/' }),
    });
    expect(response.status).toBe(500);
    expect(lines).toEqual([{ level: 'error', message: 'unhandled error' }]);
  });

  it('lets an answer take longer than the request deadline once the request is in', async () => {
    const port = await serve({ requestTimeoutMs: 400 });
    scrapeMs = 1_200;
    const response = await fetch(`http://127.0.0.1:${port}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, data: { markdown: '# ok' } });
  });

  it('reads the largest body the API takes under the default deadlines', async () => {
    const port = await serve();
    // Just under the limit, and not a valid scrape: a 400 from the schema shows it was all read.
    const strings = Array.from({ length: 20 }, () => 'x'.repeat(Math.floor((MAX_BODY_BYTES - 1_000) / 20)));
    const body = JSON.stringify({ url: 'https://example.com/', padding: strings });
    expect(body.length).toBeGreaterThan(MAX_BODY_BYTES - 1_000);
    const response = await fetch(`http://127.0.0.1:${port}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      details: [expect.objectContaining({ code: 'unrecognized_keys' })],
    });
  });
});
