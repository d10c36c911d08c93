import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import type { BrowserHub } from '../../../server/browsers/hub/create-browser-hub';
import type { RunOptions } from '../../../server/browsers/hub/task-scheduler';
import { createBrowserPresence } from '../../../server/browsers/cluster/browser-presence';
import { createCluster } from '../../../server/browsers/cluster/create-cluster';
import type { Stores } from '../../../server/platform/store/create-stores';
import { silentLog } from '../../../server/platform/log/log';

const capture: PageCapture = {
  url: 'http://example.test/',
  statusCode: 200,
  rawHtml: '<html></html>',
  renderedHtml: '<html></html>',
};
const spec: PageTaskSpec = { url: 'http://example.test/', waitForMs: 0 };
const options: RunOptions = { timeoutMs: 60_000 };

/** A hub with `browsers` connected whose tasks answer at once (the grace period is the hub's). */
function fakeHub(browsers: { count: number }) {
  const ran: RunOptions[] = [];
  const hub = {
    runTask: async (_spec: PageTaskSpec, taskOptions: RunOptions) => {
      ran.push(taskOptions);
      return capture;
    },
    connectedBrowsers: () => browsers.count,
  } as unknown as BrowserHub;
  return { hub, ran };
}

function singleInstance(browsers: { count: number }, launchesBrowsers: boolean) {
  const { hub, ran } = fakeHub(browsers);
  const cluster = createCluster({
    hub,
    stores: {} as Stores,
    log: silentLog,
    clustered: false,
    instanceId: 'instance',
    isolatesUpdates: async () => true,
    launchesBrowsers,
  });
  return { cluster, ran };
}

describe('a browser task on a server with no browser anywhere', () => {
  it('fails at once with NO_BROWSER, without waiting in the hub', async () => {
    const { cluster, ran } = singleInstance({ count: 0 }, false);
    await expect(cluster.runTask(spec, options)).rejects.toMatchObject({ code: 'NO_BROWSER' });
    await expect(cluster.runTask(spec, { ...options, browserClass: 'stealth' })).rejects.toMatchObject({
      code: 'NO_STEALTH_BROWSER',
    });
    expect(ran).toEqual([]);
  });

  it('goes to the hub when a browser is connected, busy or not', async () => {
    const { cluster, ran } = singleInstance({ count: 1 }, false);
    await expect(cluster.runTask(spec, options)).resolves.toBe(capture);
    expect(ran).toHaveLength(1);
  });

  it('waits as before when the server launches browsers, or for a browser on its way', async () => {
    const launching = singleInstance({ count: 0 }, true);
    await expect(launching.cluster.runTask(spec, options)).resolves.toBe(capture);
    const { cluster, ran } = singleInstance({ count: 0 }, false);
    await cluster.runTask(spec, { ...options, ownBrowser: true });
    await cluster.runTask(spec, { ...options, donatedOnly: true });
    expect(ran).toHaveLength(2);
  });
});

describe('createBrowserPresence', () => {
  const graceMs = 30_000;
  afterEach(() => {
    vi.useRealTimers();
  });

  it('remembers a browser that just went for the grace period', () => {
    let clock = 0;
    const browsers = { count: 1 };
    const presence = createBrowserPresence({
      browsersInCluster: () => browsers.count,
      launchesBrowsers: false,
      graceMs,
      now: () => clock,
    });
    expect(presence.noneToWaitFor()).toBe(false);
    browsers.count = 0;
    clock = graceMs - 1;
    expect(presence.noneToWaitFor()).toBe(false);
    clock = graceMs;
    expect(presence.noneToWaitFor()).toBe(true);
  });

  it('believes an absence in a cluster only once the other instances had time to report', async () => {
    vi.useFakeTimers();
    const browsers = { count: 0 };
    const presence = createBrowserPresence({
      browsersInCluster: () => browsers.count,
      launchesBrowsers: false,
      graceMs,
      confirmMs: 5_000,
    });
    const joined = presence.confirmedNone(60_000);
    await vi.advanceTimersByTimeAsync(2_000);
    // A node's browser joined another instance, and its report arrives now.
    browsers.count = 1;
    await vi.advanceTimersByTimeAsync(500);
    await expect(joined).resolves.toBe(false);

    browsers.count = 0;
    const later = createBrowserPresence({
      browsersInCluster: () => 0,
      launchesBrowsers: false,
      graceMs,
      confirmMs: 5_000,
    });
    const none = later.confirmedNone(60_000);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(none).resolves.toBe(true);
    // Never longer than the task may wait.
    const short = later.confirmedNone(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(short).resolves.toBe(true);
  });

  it('waits while the other instances have not been read', () => {
    let known = false;
    const presence = createBrowserPresence({
      browsersInCluster: () => 0,
      countKnown: () => known,
      launchesBrowsers: false,
      graceMs,
    });
    expect(presence.noneToWaitFor()).toBe(false);
    known = true;
    expect(presence.noneToWaitFor()).toBe(true);
  });
});
