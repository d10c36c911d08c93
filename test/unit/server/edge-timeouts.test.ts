import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { MAX_TIMER_MS, clampTimerMs } from '../../../server/platform/time/clamp-timer-ms';
import { createEgress, type Egress } from '../../../server/platform/egress/create-egress';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';
import { createHttpFastPath } from '../../../server/scrape/capture/fast-path/create-http-fast-path';

/** A server that accepts requests and never answers them. */
let silent: Server;
let silentUrl: string;
beforeAll(async () => {
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('clampTimerMs', () => {
  it('never gives 0 (no deadline to undici) nor more than setTimeout can hold', () => {
    expect(clampTimerMs(0)).toBe(1);
    expect(clampTimerMs(0.4)).toBe(1);
    expect(clampTimerMs(-5)).toBe(1);
    expect(clampTimerMs(Number.NaN)).toBe(1);
    expect(clampTimerMs(1.2)).toBe(2);
    expect(clampTimerMs(30_000)).toBe(30_000);
    expect(clampTimerMs(2 ** 31)).toBe(MAX_TIMER_MS);
    expect(clampTimerMs(Number.MAX_SAFE_INTEGER)).toBe(MAX_TIMER_MS);
    expect(clampTimerMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
  });
});

describe('the egress with a deadline that ran out', () => {
  it('gives up on a server that never answers instead of waiting without a deadline', async () => {
    const egress = createEgress({ allowPrivateNetworks: true });
    try {
      await expect(egress.get(silentUrl, { timeoutMs: 0, maxBytes: 100 })).rejects.toThrow(/timeout/i);
      await expect(egress.post(silentUrl, { body: '{}', headers: {}, timeoutMs: 0 })).rejects.toThrow(
        /timeout/i,
      );
    } finally {
      await egress.close();
    }
  });
});

describe('the HTTP fast path with the shortest timeouts', () => {
  it('asks the egress for a deadline of at least 1 ms when the scrape has 1 or 2 ms', async () => {
    const asked: number[] = [];
    const egress: Egress = {
      get: async (_url, { timeoutMs }) => {
        asked.push(timeoutMs);
        throw new Error('timed out');
      },
      post: () => Promise.reject(new Error('unused')),
      close: async () => undefined,
    };
    const fastPath = createHttpFastPath({
      egress,
      deriveFetched: () => Promise.reject(new Error('nothing is fetched')),
    });
    for (const timeoutMs of [1, 2]) {
      expect(await fastPath.capture(new URL(silentUrl), timeoutMs, {} as never)).toBeUndefined();
    }
    expect(asked).toHaveLength(2);
    expect(asked.every((ms) => ms >= 1)).toBe(true);
  });
});

describe('the task scheduler with a deadline past what setTimeout can hold', () => {
  it('keeps the task running instead of timing it out at once', async () => {
    const capture: PageCapture = { url: silentUrl, statusCode: 200, rawHtml: '', renderedHtml: '' };
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const sent: string[] = [];
    const worker: Worker = {
      id: 'w',
      capacity: 4,
      send: ({ taskId }) => void sent.push(taskId),
      cancel() {},
    };
    scheduler.addWorker(worker);
    const outcomes: string[] = [];
    const results = [2 ** 31, Number.MAX_SAFE_INTEGER].map((timeoutMs) =>
      scheduler.run({ url: silentUrl, waitForMs: 0 }, { timeoutMs }).then(
        () => void outcomes.push('capture'),
        (err: Error) => void outcomes.push(err.message),
      ),
    );
    // An overflowing setTimeout fires after 1 ms; give it far longer than that to show itself.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outcomes).toEqual([]);
    for (const taskId of sent) scheduler.complete('w', taskId, { capture });
    await Promise.all(results);
    expect(outcomes).toEqual(['capture', 'capture']);
    scheduler.close();
  });
});
