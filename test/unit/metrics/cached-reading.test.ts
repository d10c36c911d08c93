import { describe, expect, it } from 'vitest';
import type { Log } from '../../../server/platform/log/log';
import { createCachedReading } from '../../../server/platform/metrics/cached-reading';

function recordingLog() {
  const lines: string[] = [];
  const log: Log = {
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
  };
  return { log, lines };
}

describe('a cached store reading for a gauge', () => {
  it('reads once per max age however often it is asked', async () => {
    let clock = 0;
    let reads = 0;
    const reading = createCachedReading({
      read: async () => ++reads,
      what: 'test',
      log: recordingLog().log,
      maxAgeMs: 5_000,
      waitMs: 1_000,
      now: () => clock,
    });
    expect(await reading()).toBe(1);
    expect(await Promise.all([reading(), reading()])).toEqual([1, 1]);
    clock = 5_000;
    expect(await reading()).toBe(2);
    expect(reads).toBe(2);
  });

  it('keeps its last value while the store fails, logging the failure once', async () => {
    let clock = 0;
    let failing = false;
    const { log, lines } = recordingLog();
    const reading = createCachedReading({
      read: async () => {
        if (failing) throw new Error('store down');
        return 7;
      },
      what: 'test',
      log,
      maxAgeMs: 1,
      waitMs: 1_000,
      now: () => clock,
    });
    expect(await reading()).toBe(7);
    failing = true;
    for (const at of [10, 20, 30]) {
      clock = at;
      expect(await reading()).toBe(7);
    }
    expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(1);
    failing = false;
    clock = 40;
    expect(await reading()).toBe(7);
    expect(lines.at(-1)).toBe('info metrics: store reading recovered');
  });

  it('answers with the last value when the store is slow, and takes the late answer next time', async () => {
    let release: (value: number) => void = () => undefined;
    let clock = 0;
    const reading = createCachedReading({
      read: () => new Promise<number>((resolve) => (release = resolve)),
      what: 'test',
      log: recordingLog().log,
      maxAgeMs: 5_000,
      waitMs: 10,
      now: () => clock,
    });
    expect(await reading()).toBeUndefined();
    release(3);
    await new Promise((resolve) => setImmediate(resolve));
    clock = 1;
    expect(await reading()).toBe(3);
  });
});
