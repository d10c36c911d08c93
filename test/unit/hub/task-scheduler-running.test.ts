import { describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';

const capture: PageCapture = { url: 'http://site.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };

function fakeWorker(id: string, capacity = 2) {
  const sent: string[] = [];
  const worker: Worker = { id, capacity, send: ({ taskId }) => void sent.push(taskId), cancel: () => {} };
  return { worker, sent };
}

describe("the scheduler's running tasks, read-only", () => {
  it('lists what a worker runs, with team and start time, until each task settles', async () => {
    let clock = 1_000;
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000, now: () => clock });
    const a = fakeWorker('a', 2);
    scheduler.addWorker(a.worker);
    const first = scheduler.run(
      { url: 'http://site.test/1?q=secret', waitForMs: 0 },
      { timeoutMs: 5_000, teamId: 'team-a' },
    );
    clock = 2_000;
    const second = scheduler.run(
      { url: 'http://site.test/2', waitForMs: 0 },
      { timeoutMs: 5_000, teamId: 'team-a' },
    );
    clock = 3_000;
    const queued = scheduler.run(
      { url: 'http://site.test/3', waitForMs: 0 },
      { timeoutMs: 5_000, teamId: 'team-a' },
    );

    expect(scheduler.runningTasks('a')).toEqual([
      { taskId: a.sent[0], url: 'http://site.test/1?q=secret', teamId: 'team-a', startedAt: 1_000 },
      { taskId: a.sent[1], url: 'http://site.test/2', teamId: 'team-a', startedAt: 2_000 },
    ]);
    expect(scheduler.runningTasks('nobody')).toEqual([]);

    scheduler.complete('a', a.sent[0] as string, { error: new TaskError('BROWSER_ERROR', 'boom') });
    await expect(first).rejects.toThrow('boom');
    // The queued task took the freed tab, at the time it did.
    expect(scheduler.runningTasks('a').map((task) => [task.url, task.startedAt])).toEqual([
      ['http://site.test/2', 2_000],
      ['http://site.test/3', 3_000],
    ]);
    scheduler.complete('a', a.sent[1] as string, { capture });
    scheduler.complete('a', a.sent[2] as string, { capture });
    await Promise.all([second, queued]);
    expect(scheduler.runningTasks('a')).toEqual([]);
  });

  it('leaves out the team of a task that has none', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000, now: () => 5 });
    const a = fakeWorker('a');
    scheduler.addWorker(a.worker);
    const result = scheduler.run({ url: 'http://site.test/', waitForMs: 0 }, { timeoutMs: 5_000 });
    expect(scheduler.runningTasks('a')).toEqual([
      { taskId: a.sent[0], url: 'http://site.test/', startedAt: 5 },
    ]);
    scheduler.complete('a', a.sent[0] as string, { capture });
    await result;
  });
});
