import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/platform/config';
import { createEgress } from '../../../server/platform/egress/create-egress';
import { createLog, silentLog } from '../../../server/platform/log/log';
import { startTabhive, type RunningTabhive } from '../../../server/start-tabhive';
import { createWebhookSender, signWebhook } from '../../../server/platform/webhooks/create-webhook-sender';
import { waitUntil } from '../../helpers/start-test-tabhive';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

interface Received {
  path: string;
  /** Header lines as they arrived: name (lower-cased) and value, repeats kept. */
  lines: Array<[string, string]>;
  body: string;
}

/** A webhook receiver on loopback that keeps every request's raw header lines. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const lines: Array<[string, string]> = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2)
        lines.push([request.rawHeaders[i]!.toLowerCase(), request.rawHeaders[i + 1]!]);
      received.push({ path: request.url ?? '', lines, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>ok</body></html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    received,
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every value of a header in a request, in arrival order. */
const valuesOf = (request: Received, name: string) =>
  request.lines.filter(([line]) => line === name).map(([, value]) => value);

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

describe('a webhook delivery', () => {
  const env = useEmbeddedStores();

  it('carries the sender’s signature, id, type and the receiver’s Host once, whatever the stored headers say', async () => {
    // A delivery stored before submission checked headers: it tries to forge and override.
    const { stores } = env;
    await stores.teams.ensure({ id: 'team-1', name: 'team-1' });
    const secret = await stores.teams.webhookSecret('team-1');
    const body = '{"type":"crawl.started"}';
    await stores.webhookOutbox.enqueue({
      _id: 'job-1:started',
      teamId: 'team-1',
      url: receiver.url('/stored'),
      headers: {
        'X-Firecrawl-Signature': 'sha256=forged',
        'WEBHOOK-ID': 'forged-id',
        'Content-Type': 'text/plain',
        Host: 'internal-admin.corp',
        'Transfer-Encoding': 'chunked',
        'X-Bad': 'a\r\nX-Injected: 1',
        Authorization: 'Bearer receiver-token',
      },
      body,
    });
    const egress = createEgress({ allowPrivateNetworks: true });
    const sender = createWebhookSender({
      outbox: stores.webhookOutbox,
      teams: stores.teams,
      egress,
      log: silentLog,
    });
    sender.start();
    try {
      await waitUntil(
        async () => (await stores.webhookOutbox.get('job-1:started'))?.state === 'delivered',
        10_000,
        'the delivery',
      );
    } finally {
      sender.stop();
      await egress.close();
    }
    const delivery = receiver.received.find((request) => request.path === '/stored')!;
    expect(delivery.body).toBe(body);
    expect(valuesOf(delivery, 'x-firecrawl-signature')).toEqual([signWebhook(secret!, body)]);
    expect(valuesOf(delivery, 'webhook-id')).toEqual(['job-1:started']);
    expect(valuesOf(delivery, 'content-type')).toEqual(['application/json']);
    expect(valuesOf(delivery, 'host')).toEqual([`127.0.0.1:${receiver.port}`]);
    expect(valuesOf(delivery, 'transfer-encoding')).toEqual([]);
    expect(valuesOf(delivery, 'x-bad')).toEqual([]);
    expect(valuesOf(delivery, 'x-injected')).toEqual([]);
    expect(valuesOf(delivery, 'authorization')).toEqual(['Bearer receiver-token']);
  });
});

describe('submitting a job with webhook headers', () => {
  const apiKey = 'fc-webhook-headers-test-key';
  let dataDir: string;
  let tabhive: RunningTabhive;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-webhook-headers-'));
    tabhive = await startTabhive({
      config: loadConfig({
        PORT: '0',
        BROWSERS: '0',
        DATA_DIR: dataDir,
        API_KEY: apiKey,
        ALLOW_PRIVATE_NETWORKS: 'true',
      }),
      server: createServer(),
      log: createLog({ quiet: true }),
    });
  });
  afterAll(async () => {
    await tabhive?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  const submit = async (pathname: string, body: unknown) => {
    const response = await fetch(`${tabhive.url}${pathname}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('answers 400 in Firecrawl’s shape for a header the sender or the connection owns', async () => {
    const refusals: Array<[Record<string, string>, string]> = [
      [{ 'x-firecrawl-signature': 'sha256=forged' }, 'Tabhive sets it on every delivery'],
      [{ Host: '127.0.0.1:4001' }, 'the HTTP client sets it'],
      [{ 'Transfer-Encoding': 'chunked' }, 'the HTTP client sets it'],
      [{ 'X-Token': 'a\r\nX-Injected: 1' }, 'no CR, LF, NUL or other control characters'],
    ];
    for (const [headers, message] of refusals) {
      const webhook = { url: receiver.url('/refused'), headers };
      for (const [pathname, body] of [
        ['/v2/crawl', { url: receiver.url('/'), webhook }],
        ['/v1/crawl', { url: receiver.url('/'), webhook }],
        ['/v2/batch/scrape', { urls: [receiver.url('/')], webhook }],
        ['/v1/batch/scrape', { urls: [receiver.url('/')], webhook }],
      ] as const) {
        const answer = await submit(pathname, body);
        expect(answer.status, `${pathname} ${JSON.stringify(headers)}`).toBe(400);
        expect(answer.json).toMatchObject({
          success: false,
          code: 'BAD_REQUEST',
          error: expect.stringMatching(/^Bad Request: webhook\.headers/),
          details: [
            {
              path: ['webhook', 'headers', Object.keys(headers)[0]],
              message: expect.stringContaining(message),
            },
          ],
        });
      }
    }
    expect(receiver.received.filter((request) => request.path === '/refused')).toEqual([]);
  });

  it('delivers a job’s events with the receiver’s headers beside the sender’s own', async () => {
    const answer = await submit('/v2/batch/scrape', {
      urls: [receiver.url('/page')],
      webhook: {
        url: receiver.url('/accepted'),
        events: ['started'],
        headers: { 'X-Token': 'abc', 'Content-Type': 'application/json' },
      },
    });
    expect(answer.status).toBe(200);
    await waitUntil(
      () => receiver.received.some((request) => request.path === '/accepted'),
      10_000,
      'the started event',
    );
    const started = receiver.received.find((request) => request.path === '/accepted')!;
    const secret = await tabhive.stores.teams.webhookSecret('default');
    expect(valuesOf(started, 'x-token')).toEqual(['abc']);
    expect(valuesOf(started, 'content-type')).toEqual(['application/json']);
    expect(valuesOf(started, 'x-firecrawl-signature')).toEqual([signWebhook(secret!, started.body)]);
    expect(JSON.parse(started.body)).toMatchObject({ type: 'batch_scrape.started', id: answer.json.id });
  });
});
