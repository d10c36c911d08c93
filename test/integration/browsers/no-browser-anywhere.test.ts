import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB_PATH } from '../../../shared/protocol/messages';
import { connectFakeBrowser } from '../../helpers/fake-browser-client';
import { startTestTabhive, waitUntil } from '../../helpers/start-test-tabhive';

/**
 * A server started with BROWSERS=0 and no browser attached: a scrape that needs a browser is
 * answered 503 NO_BROWSER_AVAILABLE at once, saying how to give the server browsers. Each scrape
 * below allows 10 s: one that waited the 30 s grace period would end as a 408 timeout instead. Once
 * a browser is attached, even a busy one, a scrape waits for it as before.
 */

const ADMIN_API_KEY = 'admin-key-for-no-browser-anywhere-01';
const SCREENSHOT = { url: 'http://127.0.0.1:9/page', formats: ['screenshot'], timeout: 10_000 };

let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  tabhive = await startTestTabhive({ browsers: 0, env: { ADMIN_API_KEY } });
});
afterAll(async () => {
  await tabhive?.stop();
});

describe('a scrape on a server with no browser anywhere', () => {
  it('is answered 503 NO_BROWSER_AVAILABLE at once, saying what to do', async () => {
    const answer = await tabhive.post('/v2/scrape', SCREENSHOT);
    expect(answer.status, JSON.stringify(answer.json)).toBe(503);
    expect(answer.json).toMatchObject({ success: false, code: 'NO_BROWSER_AVAILABLE' });
    expect(answer.json.error).toMatch(/BROWSERS=1/);
    expect(answer.json.error).toMatch(/pair a browser/);
    expect(answer.json.error).toMatch(/browser node/);
  });

  it('waits for a browser that is attached but busy, as before', async () => {
    const created = await fetch(`${tabhive.url}/admin/v1/node-tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'busy node' }),
    }).then((response) => response.json() as Promise<{ data: { token: string } }>);
    const node = await connectFakeBrowser(`${tabhive.url.replace(/^http/, 'ws')}${HUB_PATH}`);
    try {
      node.hello(created.data.token);
      await node.next('welcome');
      await waitUntil(() => tabhive.tabhive.hub.connectedBrowsers() === 1, 10_000, 'the node');
      // The node takes the task and never answers: the scrape waits for it until its own timeout.
      const answer = await tabhive.post('/v2/scrape', { ...SCREENSHOT, timeout: 3_000 });
      await node.next('task');
      expect(answer.status, JSON.stringify(answer.json)).toBe(408);
      expect(answer.json.code).toBe('SCRAPE_TIMEOUT');
    } finally {
      node.close();
    }
  });
});
