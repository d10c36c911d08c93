import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let site: Awaited<ReturnType<typeof startFixtureSite>>;

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => site?.close());

describe('the local browser pool', () => {
  it('restarts a browser that dies and keeps scraping', async () => {
    const tabhive = await startTestTabhive();
    try {
      const [pid] = tabhive.tabhive.launcher?.pids() ?? [];
      expect(pid).toBeDefined();
      process.kill(-(pid as number), 'SIGKILL');
      await waitUntil(
        () => tabhive.tabhive.hub.connectedBrowsers() === 0,
        10_000,
        'the dead browser to drop off',
      );
      await waitUntil(
        () => tabhive.tabhive.hub.connectedBrowsers() === 1,
        20_000,
        'the replacement to connect',
      );
      expect(tabhive.tabhive.launcher?.pids()).not.toContain(pid);

      const { status, json } = await tabhive.post('/v2/scrape', { url: site.url('/') });
      expect(status).toBe(200);
      expect(json.data.markdown).toContain('Welcome to the hive');
    } finally {
      await tabhive.stop();
    }
  });

  it('runs BROWSERS browsers and stops all of them on shutdown', async () => {
    const tabhive = await startTestTabhive({ browsers: 2 });
    const pids = tabhive.tabhive.launcher?.pids() ?? [];
    expect(pids).toHaveLength(2);
    const health = await (await fetch(`${tabhive.url}/health`)).json();
    expect(health).toEqual({ ok: true, browsers: 2, store: 'embedded' });
    await tabhive.stop();
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), 10_000, 'the browsers to exit');
  });
});
