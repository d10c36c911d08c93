import { describe, expect, it } from 'vitest';
import { silentLog } from '../../../server/platform/log/log';
import { createFigureHistory, createRing } from '../../../server/platform/metrics/figure-history';

describe('createRing', () => {
  it('keeps the newest items, oldest first, and never more than its capacity', () => {
    const ring = createRing<number>(3);
    for (let i = 1; i <= 7; i += 1) ring.push(i);
    expect(ring.items()).toEqual([5, 6, 7]);
    expect(ring.size).toBe(3);
  });
});

describe('createFigureHistory', () => {
  const history = (reads: Array<Map<string, Partial<Record<'x', number>>> | Error>) => {
    let clock = 0;
    let call = 0;
    const figures = createFigureHistory<'x'>({
      what: 'test',
      everyMs: 10,
      keepMs: 30,
      log: silentLog,
      now: () => clock,
      read: async () => {
        const next = reads[Math.min(call++, reads.length - 1)];
        if (next instanceof Error) throw next;
        return next ?? new Map();
      },
    });
    return {
      figures,
      tickAt: async (at: number) => {
        clock = at;
        await figures.tick();
      },
    };
  };

  it('keeps each scope apart, and only the last keepMs of it', async () => {
    const { figures, tickAt } = history([
      new Map([
        ['*', { x: 1 }],
        ['a', { x: 2 }],
      ]),
    ]);
    for (let at = 0; at <= 100; at += 10) await tickAt(at);
    expect(figures.samples('*').map((sample) => sample.at)).toEqual([70, 80, 90, 100]);
    expect(figures.samples('a').every((sample) => sample.values.x === 2)).toBe(true);
    expect(figures.samples('nobody')).toEqual([]);
  });

  it('forgets a scope that stopped being read, and skips a reading that failed', async () => {
    const { figures, tickAt } = history([
      new Map([
        ['*', { x: 1 }],
        ['a', { x: 2 }],
      ]),
      new Error('store down'),
      new Map([['*', { x: 3 }]]),
    ]);
    await tickAt(0);
    await tickAt(10);
    await tickAt(20);
    expect(figures.samples('*').map((sample) => sample.values.x)).toEqual([1, 3]);
    await tickAt(60);
    expect(figures.samples('a')).toEqual([]);
  });
});
