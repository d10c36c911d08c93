import { describe, expect, it } from 'vitest';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';

const capture: PageCapture = { url: 'http://site.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };
const page: PageTaskSpec = { url: 'http://site.test/', waitForMs: 0 };
const session: PageTaskSpec = { url: 'about:blank', waitForMs: 0, session: {} };

function worker(id: string, capacity: number, reservedFor?: string) {
  const sent: string[] = [];
  const value: Worker = {
    id,
    capacity,
    ...(reservedFor === undefined ? {} : { reservedFor }),
    send: ({ taskId }) => void sent.push(taskId),
    cancel: () => undefined,
  };
  return { value, sent };
}

/** Browser sessions run in browsers launched for them alone (session browsers, N6 of security.md). */
describe('task scheduler: browsers reserved for one session', () => {
  it('waits for the session’s own browser, never takes a pool browser, and leaves the pool free', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 5_000 });
    const pool = worker('pool', 1);
    scheduler.addWorker(pool.value);
    const held = scheduler.run(session, { timeoutMs: 10_000, teamId: 'A', taskId: 's1', ownBrowser: true });
    // The pool's only tab is free, but the session waits for its browser.
    expect(pool.sent).toEqual([]);
    const own = worker('own', 1, 's1');
    scheduler.addWorker(own.value);
    expect(own.sent).toEqual(['s1']);

    // Another team's page goes to the pool while the session holds its own browser.
    const other = scheduler.run(page, { timeoutMs: 10_000, teamId: 'B' });
    expect(pool.sent).toHaveLength(1);
    scheduler.complete('pool', pool.sent[0] as string, { capture });
    await expect(other).resolves.toMatchObject({ url: capture.url });
    scheduler.complete('own', 's1', { capture });
    await held;
  });

  it('never gives a reserved browser any other task, even when it is the only one free', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 200 });
    const own = worker('own', 4, 's1');
    scheduler.addWorker(own.value);
    const stray = scheduler.run(page, { timeoutMs: 5_000, teamId: 'A' });
    const otherSession = scheduler.run(session, {
      timeoutMs: 5_000,
      teamId: 'A',
      taskId: 's2',
      ownBrowser: true,
    });
    expect(own.sent).toEqual([]);
    await expect(stray).rejects.toMatchObject({ code: 'NO_BROWSER' });
    await expect(otherSession).rejects.toBeInstanceOf(TaskError);
    expect(scheduler.workerCount('basic')).toBe(0);
    expect(scheduler.hasPoolBrowser('basic')).toBe(false);
    expect(scheduler.spareSlots('basic')).toBe(0);
  });
});
