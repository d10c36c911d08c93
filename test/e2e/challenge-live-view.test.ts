import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CLEARED_PAGE_TEXT, startBlockPagesSite } from '../helpers/block-pages-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

/**
 * Issue 34 item 5, the launched-browser half: a crawl page meets a Cloudflare-style challenge in a
 * launched browser; the crawl's webhook gets `page.challenge` with a live view URL of that task's
 * tab; the operator opens it (the page, then its socket: frames of the tab arrive) and clicks the
 * check through the live view's input channel (the viewer socket's `input` messages, as the
 * viewer page sends them); the challenge clears and the page is crawled with its real content.
 */

/** The operator's wait, in the server's configuration. */
const WAIT_MS = 40_000;

interface Delivery {
  type: string;
  id: string;
  data: unknown;
  metadata: Record<string, string>;
}

let site: Awaited<ReturnType<typeof startBlockPagesSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let receiver: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];

/** A live view socket opened as the viewer page opens it: the API key first. */
async function viewerSocket(liveViewUrl: string, apiKey: string) {
  const socket = new WebSocket(`${liveViewUrl.replace(/^http/, 'ws')}/socket`);
  const messages: Array<Record<string, unknown>> = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'auth', apiKey }));
  return { socket, messages, closed, send: (message: unknown) => socket.send(JSON.stringify(message)) };
}

beforeAll(async () => {
  site = await startBlockPagesSite();
  tabhive = await startTestTabhive({ browsers: 1, env: { CHALLENGE_WAIT_MS: String(WAIT_MS) } });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Delivery);
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

const crawl = (url: string, webhook?: unknown) =>
  tabhive.post('/v2/crawl', {
    url,
    limit: 1,
    sitemap: 'skip',
    scrapeOptions: { formats: ['markdown'], timeout: 90_000 },
    ...(webhook === undefined ? {} : { webhook }),
  });

async function finished(id: string) {
  let status: { status: number; json: Record<string, unknown> & { data?: unknown[] } } | undefined;
  await waitUntil(
    async () => {
      status = await tabhive.get(`/v2/crawl/${id}`);
      return status.json['status'] !== 'scraping';
    },
    110_000,
    `crawl ${id} to finish`,
  );
  return status!.json;
}

describe('a challenge in a launched browser', () => {
  it('raises page.challenge with a live view URL in which an operator passes the check', async () => {
    const started = await crawl(site.url('/challenge'), {
      url: receiverUrl,
      metadata: { run: 'challenge' },
    });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    const id = started.json.id as string;

    let event: Delivery | undefined;
    await waitUntil(
      () =>
        (event = deliveries.find((each) => each.id === id && each.type === 'page.challenge')) !== undefined,
      60_000,
      'the page.challenge webhook',
    );
    const data = event!.data as {
      url: string;
      vendor: string;
      liveViewUrl: string;
      interactiveLiveViewUrl: string;
      expiresAt: string;
    };
    expect(data).toMatchObject({ url: site.url('/challenge'), vendor: 'Cloudflare' });
    expect(event!.metadata).toEqual({ run: 'challenge' });
    expect(data.interactiveLiveViewUrl).toMatch(new RegExp(`^${tabhive.url}/live/[A-Za-z0-9_-]+$`));
    expect(data.liveViewUrl).not.toBe(data.interactiveLiveViewUrl);
    expect(Date.parse(data.expiresAt)).toBeGreaterThan(Date.now());

    // The operator opens the live view: the page, then its socket, which shows the tab.
    const page = await fetch(data.interactiveLiveViewUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const viewer = await viewerSocket(data.interactiveLiveViewUrl, tabhive.apiKey);
    await waitUntil(
      () => viewer.messages.some((message) => message['type'] === 'frame'),
      20_000,
      "a frame of the task's tab",
    );
    expect(viewer.messages[0]).toMatchObject({ type: 'ready', interactive: true });
    const frame = viewer.messages.find((message) => message['type'] === 'frame')!;
    viewer.send({ type: 'ack', frameSessionId: frame['frameSessionId'] });

    // The operator clicks the check (the fixture's button spans 40–280 × 120–200 CSS pixels).
    for (const type of ['mousePressed', 'mouseReleased'] as const)
      viewer.send({
        type: 'input',
        input: { kind: 'mouse', type, x: 160, y: 160, button: 'left', clickCount: 1 },
      });

    const done = await finished(id);
    expect(done['status']).toBe('completed');
    expect(done.data).toHaveLength(1);
    const [document] = done.data as Array<{ markdown: string; metadata: { statusCode: number } }>;
    expect(document!.markdown).toContain(CLEARED_PAGE_TEXT);
    expect(document!.metadata.statusCode).toBe(200);
    // The view ends with the wait: its socket is told so, and its URL is gone.
    expect(await viewer.closed).toBe(4410);
    expect((await fetch(data.interactiveLiveViewUrl)).status).toBe(404);
    expect(viewer.messages.filter((message) => message['type'] === 'error')).toEqual([]);
  }, 150_000);

  it('without a webhook, the challenge page fails the crawl page at once, with the vendor named', async () => {
    const started = await crawl(site.url('/block/cloudflare-interstitial.html'));
    const id = started.json.id as string;
    const done = await finished(id);
    expect(done['completed']).toBe(0);
    const errors = await tabhive.get(`/v2/crawl/${id}/errors`);
    expect(errors.json.errors[0]).toMatchObject({ code: 'SCRAPE_SITE_ERROR' });
    expect(errors.json.errors[0].error).toContain('Cloudflare challenge page');
    expect(deliveries.filter((each) => each.id === id)).toEqual([]);
  }, 120_000);

  it('tells a webhook that takes no page events nothing: the page fails at once', async () => {
    const started = await crawl(site.url('/block/cloudflare-interstitial.html?quiet'), {
      url: receiverUrl,
      events: ['completed'],
    });
    const id = started.json.id as string;
    const done = await finished(id);
    expect(done['completed']).toBe(0);
    const errors = await tabhive.get(`/v2/crawl/${id}/errors`);
    expect(errors.json.errors[0]).toMatchObject({ code: 'SCRAPE_SITE_ERROR' });
    await waitUntil(
      () => deliveries.some((each) => each.id === id && each.type === 'crawl.completed'),
      20_000,
      'the completed webhook',
    );
    expect(deliveries.filter((each) => each.id === id).map((each) => each.type)).toEqual(['crawl.completed']);
  }, 120_000);
});
