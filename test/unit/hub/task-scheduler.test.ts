import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { MAX_ATTEMPTS, createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';

const capture: PageCapture = {
  url: 'http://example.test/',
  statusCode: 200,
  rawHtml: '<html></html>',
  renderedHtml: '<html></html>',
};
const spec = { url: 'http://example.test/', waitForMs: 0 };

function fakeWorker(id: string, capacity = 2) {
  const sent: string[] = [];
  const cancelled: string[] = [];
  const worker: Worker = {
    id,
    capacity,
    send: ({ taskId }) => void sent.push(taskId),
    cancel: (taskId) => void cancelled.push(taskId),
  };
  return { worker, sent, cancelled };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('task scheduler', () => {
  it('hands a task to a connected worker and resolves with its capture', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = fakeWorker('a');
    scheduler.addWorker(a.worker);
    const result = scheduler.run(spec, { timeoutMs: 5_000 });
    expect(a.sent).toHaveLength(1);
    expect(scheduler.complete('a', a.sent[0] as string, { capture })).toBe(true);
    await expect(result).resolves.toEqual(capture);
  });

  it('queues tasks beyond capacity and dispatches them when a slot frees up', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = fakeWorker('a', 1);
    scheduler.addWorker(a.worker);
    const first = scheduler.run(spec, { timeoutMs: 5_000 });
    const second = scheduler.run(spec, { timeoutMs: 5_000 });
    expect(a.sent).toHaveLength(1);
    scheduler.complete('a', a.sent[0] as string, { capture });
    await first;
    expect(a.sent).toHaveLength(2);
    scheduler.complete('a', a.sent[1] as string, { capture });
    await expect(second).resolves.toEqual(capture);
  });

  it('gives the next free tab to a waiting interactive task before waiting job pages', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = fakeWorker('a', 1);
    scheduler.addWorker(a.worker);
    const specs = ['page-1', 'page-2', 'page-3'].map((page) => ({
      ...spec,
      url: `http://example.test/${page}`,
    }));
    const urlsSent: string[] = [];
    a.worker.send = ({ taskId, spec: sent }) => {
      a.sent.push(taskId);
      urlsSent.push(sent.url);
    };
    const pages = specs.map((page) => scheduler.run(page, { timeoutMs: 5_000, priority: 'background' }));
    const first = scheduler.run({ ...spec, url: 'http://example.test/scrape-1' }, { timeoutMs: 5_000 });
    const second = scheduler.run({ ...spec, url: 'http://example.test/scrape-2' }, { timeoutMs: 5_000 });
    for (let done = 0; done < 5; done += 1) {
      scheduler.complete('a', a.sent[done] as string, { capture });
    }
    await Promise.all([...pages, first, second]);
    expect(urlsSent.map((url) => url.replace('http://example.test/', ''))).toEqual([
      'page-1',
      'scrape-1',
      'scrape-2',
      'page-2',
      'page-3',
    ]);
  });

  it('spreads tasks over the least busy workers', () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = fakeWorker('a', 2);
    const b = fakeWorker('b', 2);
    scheduler.addWorker(a.worker);
    scheduler.addWorker(b.worker);
    for (let i = 0; i < 4; i += 1) void scheduler.run(spec, { timeoutMs: 5_000 }).catch(() => undefined);
    expect(a.sent).toHaveLength(2);
    expect(b.sent).toHaveLength(2);
    scheduler.close();
  });

  it('ignores a result from a worker that does not hold the task', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = fakeWorker('a');
    const b = fakeWorker('b', 0);
    scheduler.addWorker(a.worker);
    scheduler.addWorker(b.worker);
    const result = scheduler.run(spec, { timeoutMs: 5_000 });
    const taskId = a.sent[0] as string;
    expect(scheduler.complete('b', taskId, { capture })).toBe(false);
    expect(scheduler.complete('a', 'no-such-task', { capture })).toBe(false);
    expect(
      scheduler.complete('a', taskId, { error: new TaskError('SCRAPE_SITE_ERROR', 'net::ERR_FAILED') }),
    ).toBe(true);
    await expect(result).rejects.toMatchObject({ code: 'SCRAPE_SITE_ERROR' });
  });

  it('retries the task of a disconnected worker on another one', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = fakeWorker('a');
    const b = fakeWorker('b');
    scheduler.addWorker(a.worker);
    const result = scheduler.run(spec, { timeoutMs: 5_000 });
    const taskId = a.sent[0] as string;
    scheduler.addWorker(b.worker);
    scheduler.removeWorker('a');
    expect(b.sent).toEqual([taskId]);
    scheduler.complete('b', taskId, { capture });
    await expect(result).resolves.toEqual(capture);
  });

  it(`fails a task with BROWSER_LOST after ${MAX_ATTEMPTS} browsers died running it`, async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const result = scheduler.run(spec, { timeoutMs: 5_000 });
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      scheduler.addWorker(fakeWorker(`w${i}`).worker);
      scheduler.removeWorker(`w${i}`);
    }
    await expect(result).rejects.toMatchObject({ code: 'BROWSER_LOST' });
  });

  it('fails with SCRAPE_TIMEOUT at the deadline and tells the worker to cancel', async () => {
    vi.useFakeTimers();
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const a = fakeWorker('a');
    scheduler.addWorker(a.worker);
    const result = scheduler.run(spec, { timeoutMs: 2_000 });
    const assertion = expect(result).rejects.toMatchObject({ code: 'SCRAPE_TIMEOUT' });
    await vi.advanceTimersByTimeAsync(2_001);
    await assertion;
    expect(a.cancelled).toEqual(a.sent);
    // A late answer changes nothing.
    expect(scheduler.complete('a', a.sent[0] as string, { capture })).toBe(false);
  });

  it('fails with NO_BROWSER when no browser connects within the grace period', async () => {
    vi.useFakeTimers();
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 3_000 });
    const result = scheduler.run(spec, { timeoutMs: 60_000 });
    const assertion = expect(result).rejects.toMatchObject({ code: 'NO_BROWSER' });
    await vi.advanceTimersByTimeAsync(3_001);
    await assertion;
  });

  it('gives the deadline, not the grace period, to a task that waits for a busy browser', async () => {
    vi.useFakeTimers();
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = fakeWorker('a', 1);
    scheduler.addWorker(a.worker);
    void scheduler.run(spec, { timeoutMs: 60_000 }).catch(() => undefined);
    const waiting = scheduler.run(spec, { timeoutMs: 5_000 });
    const assertion = expect(waiting).rejects.toMatchObject({ code: 'SCRAPE_TIMEOUT' });
    await vi.advanceTimersByTimeAsync(5_001);
    await assertion;
    scheduler.close();
  });

  it('sends each task the time left until its deadline', async () => {
    vi.useFakeTimers();
    const budgets: number[] = [];
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const result = scheduler.run(spec, { timeoutMs: 10_000 });
    await vi.advanceTimersByTimeAsync(4_000);
    scheduler.addWorker({
      id: 'late',
      capacity: 1,
      send: (task) => void budgets.push(task.timeoutMs),
      cancel() {},
    });
    expect(budgets).toEqual([6_000]);
    scheduler.close();
    await expect(result).rejects.toBeInstanceOf(TaskError);
  });
});
