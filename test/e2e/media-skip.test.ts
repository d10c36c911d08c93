import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * A launched browser leaves out images, video, audio and web fonts when nothing the caller asked
 * for shows them (docs/browser-control.md#media), and loads them for a screenshot, for branding
 * and when the caller turns `blockMedia` off.
 */

/** A 1×1 PNG, so that a page whose image does load can be screenshotted. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const MEDIA_PATHS = ['/bee.png', '/hive.woff2', '/clip.webm', '/hum.mp3'];

const page = `<!doctype html><html><head><title>Media page</title>
<style>@font-face { font-family: Hive; src: url(/hive.woff2) format('woff2'); } body { font-family: Hive, serif; }</style>
</head><body><main><h1>The media page</h1>
<p>The keeper photographed every frame of the north hive before the harvest began.</p>
<img src="/bee.png" alt="A bee on a frame" width="40" height="40">
<video src="/clip.webm" autoplay muted></video><audio src="/hum.mp3" preload="auto"></audio>
</main></body></html>`;

let server: Server;
let origin: string;
const hits: string[] = [];
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fixture').pathname;
    hits.push(path);
    if (path === '/media.html') response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    else if (path === '/bee.png') response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Every page through the browser: the HTTP fast path loads no media anyway.
  tabhive = await startTestTabhive({ env: { HTTP_FAST_PATH: 'false' } });
});
afterAll(async () => {
  await tabhive?.stop();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

/** The media requests the fixture saw while `run` ran. */
async function mediaRequestsDuring(run: () => Promise<void>): Promise<string[]> {
  const from = hits.length;
  await run();
  return hits.slice(from).filter((path) => MEDIA_PATHS.includes(path));
}

const scrape = (body: Record<string, unknown>) =>
  tabhive.post('/v2/scrape', { url: `${origin}/media.html`, maxAge: 0, ...body });

describe('media in a launched browser', () => {
  it('skips images, video, audio and fonts for a text capture, and keeps the image in the output', async () => {
    const requested = await mediaRequestsDuring(async () => {
      const { status, json } = await scrape({ formats: ['markdown', 'html', 'images'] });
      expect(status).toBe(200);
      expect(json.data.markdown).toContain('photographed every frame of the north hive');
      expect(json.data.markdown).toContain(`![A bee on a frame](${origin}/bee.png)`);
      expect(json.data.images).toContain(`${origin}/bee.png`);
    });
    expect(requested).toEqual([]);
  });

  it('loads them for a screenshot', async () => {
    const requested = await mediaRequestsDuring(async () => {
      const { status, json } = await scrape({ formats: ['markdown', 'screenshot'] });
      expect(status).toBe(200);
      expect(json.data.screenshot).toMatch(/^data:image\/(png|jpeg);base64,/);
    });
    expect(requested).toContain('/bee.png');
    expect(requested).toContain('/hive.woff2');
  });

  it('loads them for a screenshot action', async () => {
    const requested = await mediaRequestsDuring(async () => {
      const { status } = await scrape({ formats: ['markdown'], actions: [{ type: 'screenshot' }] });
      expect(status).toBe(200);
    });
    expect(requested).toContain('/bee.png');
  });

  it('loads them when the caller turns blockMedia off', async () => {
    const requested = await mediaRequestsDuring(async () => {
      const { status } = await scrape({ formats: ['markdown'], blockMedia: false });
      expect(status).toBe(200);
    });
    expect(requested).toContain('/bee.png');
    expect(requested).toContain('/hive.woff2');
  });

  it('skips them again for the next text capture in the same tab', async () => {
    const requested = await mediaRequestsDuring(async () => {
      const { status } = await scrape({ formats: ['markdown'] });
      expect(status).toBe(200);
    });
    expect(requested).toEqual([]);
  });

  it('rejects a blockMedia that is not a boolean in the error shape', async () => {
    const { status, json } = await scrape({ formats: ['markdown'], blockMedia: 'no' });
    expect(status).toBe(400);
    expect(json.success).toBe(false);
  });
});
