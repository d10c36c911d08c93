import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '../../shared/extension-identity';
import { connectDevtools } from '../helpers/devtools-client';
import { startFixtureSite } from '../helpers/fixture-site';
import { freePort } from '../helpers/free-port';
import { startTestTabhive, waitUntil } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let devtoolsPort: number;

beforeAll(async () => {
  site = await startFixtureSite();
  devtoolsPort = await freePort();
  // Only this test opens a debugging port, to stop the extension's worker from outside.
  tabhive = await startTestTabhive({ extraChromeArgs: [`--remote-debugging-port=${devtoolsPort}`] });
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

/**
 * The worker stopped: its socket is gone, or a new worker already runs in its place. Any extension
 * event (a task tab loading, say) can start the next worker within a poll, and its `hello` then
 * replaces the old session before the server sees a count of zero.
 */
async function workerStopped(
  devtools: Awaited<ReturnType<typeof connectDevtools>>,
  oldId: string | undefined,
) {
  if (tabhive.tabhive.hub.connectedBrowsers() === 0) return true;
  return (await devtools.targets()).some(
    (target) =>
      target.type === 'service_worker' &&
      target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`) &&
      target.id !== oldId,
  );
}

describe('a worker that dies mid-task', () => {
  it('closes the orphaned window and removes its rules when it starts again', async () => {
    const devtools = await connectDevtools(devtoolsPort);
    try {
      const scrape = tabhive.post('/v2/scrape', {
        url: site.url('/never-loads.html'),
        timeout: 8_000,
        headers: { 'X-Orphan': '1' },
      });
      await waitUntil(
        async () => (await devtools.targets()).some((target) => target.url.includes('never-loads')),
        5_000,
        'the task window',
      );
      const worker = (await devtools.targets()).find(
        (target) =>
          target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
      );
      expect(worker).toBeDefined();
      // What Chrome does to an idle or misbehaving worker: it stops, its tasks' promises with it.
      await devtools.send('Target.closeTarget', { targetId: worker?.id });
      await waitUntil(() => workerStopped(devtools, worker?.id), 5_000, 'the worker to stop');

      // Any extension event starts the worker again; a tab loading a page is one.
      const { targetId } = await devtools.send<{ targetId: string }>('Target.createTarget', {
        url: site.url('/'),
      });
      await waitUntil(() => tabhive.tabhive.hub.connectedBrowsers() === 1, 10_000, 'the worker to reconnect');
      await devtools.send('Target.closeTarget', { targetId });

      // The server retries the lost task on the new connection, where it runs out of time.
      expect((await scrape).status).toBe(408);
      await waitUntil(
        () => {
          const status = tabhive.tabhive.hub.browserStatuses()[0]?.status;
          return status?.runningTasks === 0 && status.windows === 1;
        },
        5_000,
        'only the launch window to be left',
      );
      expect(tabhive.tabhive.hub.browserStatuses()[0]?.status).toEqual({
        runningTasks: 0,
        windows: 1,
        debuggerSessions: 0,
        sessionRules: 0,
        pooledTabs: 0,
      });
      expect((await devtools.targets()).filter((target) => target.url.includes('never-loads'))).toEqual([]);
    } finally {
      devtools.close();
    }
  });

  it('comes back by itself when it was stopped while idle', async () => {
    const devtools = await connectDevtools(devtoolsPort);
    try {
      const worker = (await devtools.targets()).find(
        (target) =>
          target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
      );
      await devtools.send('Target.closeTarget', { targetId: worker?.id });
      await waitUntil(() => workerStopped(devtools, worker?.id), 5_000, 'the worker to stop');
      // No socket and no tab event: only the extension's 30-second alarm can start it again.
      await waitUntil(() => tabhive.tabhive.hub.connectedBrowsers() === 1, 40_000, 'the worker to reconnect');
      const { status } = await tabhive.post('/v2/scrape', { url: site.url('/') });
      expect(status).toBe(200);
    } finally {
      devtools.close();
    }
  });
});
