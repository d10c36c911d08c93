import { describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { createTaskScheduler, stateKeyOf, type Worker } from '../../../server/browsers/hub/task-scheduler';

const capture: PageCapture = { url: 'http://a.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };
const spec = { url: 'http://a.test/', waitForMs: 0 };

function poolWorker(id: string, capacity: number) {
  const sent: Array<{ taskId: string; stateKey?: string }> = [];
  const worker: Worker = {
    id,
    capacity,
    send: ({ taskId, stateKey }) =>
      void sent.push({ taskId, ...(stateKey === undefined ? {} : { stateKey }) }),
    cancel: () => undefined,
  };
  return { worker, sent };
}

/**
 * H1 of the red-team report: one pool browser is one cookie jar, so tasks of two teams never run
 * on it at once, and each task says whose state it runs in.
 */
describe('task scheduler: browser state per team', () => {
  it('sends each task with its team’s state key and never mixes keys on one browser', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = poolWorker('a', 4);
    scheduler.addWorker(a.worker);
    const teamA1 = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A' });
    const teamB = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'B' });
    const teamA2 = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A' });
    // Team A's first task runs; team B's waits although slots are free, and claims the browser,
    // so team A's second task (queued behind B) waits too instead of keeping B out.
    expect(a.sent).toEqual([{ taskId: expect.any(String), stateKey: stateKeyOf('A') }]);

    scheduler.complete('a', a.sent[0]!.taskId, { capture });
    await teamA1;
    expect(a.sent[1]).toEqual({ taskId: expect.any(String), stateKey: stateKeyOf('B') });
    expect(a.sent).toHaveLength(2);

    scheduler.complete('a', a.sent[1]!.taskId, { capture });
    await teamB;
    expect(a.sent[2]).toEqual({ taskId: expect.any(String), stateKey: stateKeyOf('A') });
    scheduler.complete('a', a.sent[2]!.taskId, { capture });
    await teamA2;
  });

  it('never runs two keys on one browser at once, and finishes every team’s tasks', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const workers = [poolWorker('a', 2), poolWorker('b', 3)];
    for (const { worker } of workers) scheduler.addWorker(worker);
    /** Per browser: the tasks it runs now and their keys. */
    const runningOn = new Map<string, Map<string, string>>(
      workers.map(({ worker }) => [worker.id, new Map()]),
    );
    const seen = new Map<string, number>(workers.map(({ worker }) => [worker.id, 0]));
    const dispatch = () => {
      for (const { worker, sent } of workers) {
        for (const task of sent.slice(seen.get(worker.id))) {
          const here = runningOn.get(worker.id)!;
          for (const key of here.values()) expect(key).toBe(task.stateKey);
          here.set(task.taskId, task.stateKey!);
        }
        seen.set(worker.id, sent.length);
      }
    };
    let random = 7;
    const next = () => (random = (random * 48271) % 2147483647) / 2147483647;
    const teams = ['A', 'B', 'C'];
    const results = Array.from({ length: 40 }, (_, index) =>
      scheduler.run(spec, { timeoutMs: 60_000, teamId: teams[index % 3]!, priority: 'background' }),
    );
    dispatch();
    for (let finished = 0; finished < 40; finished += 1) {
      const busy = [...runningOn].flatMap(([workerId, tasks]) =>
        [...tasks.keys()].map((taskId) => ({ workerId, taskId })),
      );
      expect(busy.length).toBeGreaterThan(0);
      const done = busy[Math.floor(next() * busy.length)]!;
      runningOn.get(done.workerId)!.delete(done.taskId);
      expect(scheduler.complete(done.workerId, done.taskId, { capture })).toBe(true);
      dispatch();
    }
    await Promise.all(results);
    // Both browsers served, and more than one team each: the claims hand browsers over.
    expect(workers.every(({ sent }) => new Set(sent.map((task) => task.stateKey)).size > 1)).toBe(true);
  });

  it('keeps tasks for no team apart from every team', () => {
    expect(stateKeyOf(undefined)).not.toBe(stateKeyOf('none'));
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const a = poolWorker('a', 4);
    scheduler.addWorker(a.worker);
    void scheduler.run(spec, { timeoutMs: 5_000 }).catch(() => undefined);
    void scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A' }).catch(() => undefined);
    expect(a.sent).toHaveLength(1);
    scheduler.close();
  });
});
