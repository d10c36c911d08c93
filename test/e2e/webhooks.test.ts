import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

interface Delivery {
  type: string;
  id: string;
  data: Array<{ metadata: { scrapeId: string } }>;
  metadata: Record<string, string>;
  verified: boolean;
  webhookId: string;
  token: string | undefined;
}

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let receiver: Server;
let receiverUrl: string;
let secret: string;
const deliveries: Delivery[] = [];
/** Attempts per `webhook-id`; `completed` events are refused twice before they are taken. */
const attempts = new Map<string, number>();

beforeAll(async () => {
  site = await startCrawlSite();
  tabhive = await startTestTabhive({ webhookRetryDelaysMs: [300, 300, 300] });
  secret = (await tabhive.tabhive.stores.teams.webhookSecret('default'))!;
  // The operator reads it from DATA_DIR/webhook-secret.
  expect((await readFile(path.join(tabhive.dataDir, 'webhook-secret'), 'utf8')).trim()).toBe(secret);
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      // Firecrawl's documented check: HMAC-SHA256 of the raw body, hex, compared in constant time.
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      const given = Buffer.from(String(request.headers['x-firecrawl-signature'] ?? ''));
      const verified = given.length === expected.length && timingSafeEqual(given, expected);
      const webhookId = String(request.headers['webhook-id']);
      const body = JSON.parse(raw.toString('utf8')) as Omit<Delivery, 'verified' | 'webhookId' | 'token'>;
      const count = (attempts.get(webhookId) ?? 0) + 1;
      attempts.set(webhookId, count);
      if (body.type.endsWith('.completed') && count <= 2) {
        response.writeHead(503).end();
        return;
      }
      deliveries.push({
        ...body,
        verified,
        webhookId,
        token: request.headers['x-token'] as string | undefined,
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const eventsOf = (id: string) => deliveries.filter((delivery) => delivery.id === id);

describe('webhooks', () => {
  it('sends signed started, page and completed events for a crawl, retrying a failing receiver', async () => {
    const started = await tabhive.post('/v2/crawl', {
      url: site.url('/'),
      maxDiscoveryDepth: 1,
      sitemap: 'skip',
      webhook: { url: receiverUrl, metadata: { run: 'crawl-1' }, headers: { 'x-token': 'abc' } },
    });
    const id = started.json.id as string;
    await waitUntil(
      () => eventsOf(id).some((event) => event.type === 'crawl.completed'),
      30_000,
      'completed',
    );
    const status = await tabhive.get(`/v2/crawl/${id}`);
    const events = eventsOf(id);
    const pages = events.filter((event) => event.type === 'crawl.page');
    expect(events.filter((event) => event.type === 'crawl.started')).toHaveLength(1);
    expect(pages).toHaveLength(status.json.data.length);
    expect(pages.map((event) => event.data[0]!.metadata.scrapeId).sort()).toEqual(
      status.json.data.map((doc: { metadata: { scrapeId: string } }) => doc.metadata.scrapeId).sort(),
    );
    expect(events.every((event) => event.verified && event.token === 'abc')).toBe(true);
    expect(events.every((event) => event.metadata.run === 'crawl-1')).toBe(true);
    const completed = events.find((event) => event.type === 'crawl.completed')!;
    expect(attempts.get(completed.webhookId)).toBe(3);
    expect(completed.data).toEqual([]);
  });

  it('sends batch_scrape events, only those asked for', async () => {
    const started = await tabhive.post('/v2/batch/scrape', {
      urls: [site.url('/about.html'), site.url('/docs/page-1.html')],
      webhook: { url: receiverUrl, events: ['started', 'page'] },
    });
    const id = started.json.id as string;
    await waitUntil(
      async () => (await tabhive.get(`/v2/batch/scrape/${id}`)).json.status === 'completed',
      30_000,
      'the batch',
    );
    await waitUntil(() => eventsOf(id).length === 3, 10_000, 'three events');
    expect(
      eventsOf(id)
        .map((event) => event.type)
        .sort(),
    ).toEqual(['batch_scrape.page', 'batch_scrape.page', 'batch_scrape.started']);
  });

  it('refuses webhook targets the URL policy forbids when the job is submitted', async () => {
    // Metadata stays refused with ALLOW_PRIVATE_NETWORKS=true; the egress would refuse the delivery too.
    const refused = await tabhive.post('/v2/batch/scrape', {
      urls: [site.url('/about.html')],
      webhook: 'http://169.254.169.254/latest',
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ success: false, code: 'URL_BLOCKED' });
    expect(refused.json.error).toContain('Webhook URL refused');
  });
});
