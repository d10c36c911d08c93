import { describe, expect, it } from 'vitest';
import type { BrowserClass, PageCapture } from '../../../shared/protocol/messages';
import { TaskError } from '../../../server/browsers/hub/task-error';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';

const capture: PageCapture = { url: 'http://a.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };
const spec = { url: 'http://a.test/', waitForMs: 0 };

function worker(id: string, browserClass?: BrowserClass) {
  const sent: string[] = [];
  const value: Worker = {
    id,
    capacity: 1,
    ...(browserClass === undefined ? {} : { browserClass }),
    send: ({ taskId }) => void sent.push(taskId),
    cancel: () => undefined,
  };
  return { value, sent };
}

describe('task scheduler and browser classes', () => {
  it('hands a task only to a browser of its class', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const basic = worker('b');
    const stealth = worker('s', 'stealth');
    scheduler.addWorker(basic.value);
    scheduler.addWorker(stealth.value);
    const run = scheduler.run(spec, { timeoutMs: 5_000, browserClass: 'stealth' });
    expect(basic.sent).toEqual([]);
    expect(stealth.sent).toHaveLength(1);
    scheduler.complete('s', stealth.sent[0] as string, { capture });
    await expect(run).resolves.toEqual(capture);
    expect(scheduler.workerCount('stealth')).toBe(1);
    expect(scheduler.workerCount('basic')).toBe(1);
    expect(scheduler.workerCount()).toBe(2);
  });

  it('does not let a waiting stealth task hold up basic tasks behind it', () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const basic = worker('b');
    scheduler.addWorker(basic.value);
    void scheduler.run(spec, { timeoutMs: 5_000, browserClass: 'stealth' }).catch(() => undefined);
    void scheduler.run(spec, { timeoutMs: 5_000 }).catch(() => undefined);
    expect(basic.sent).toHaveLength(1);
    scheduler.close();
  });

  it('fails a stealth task with NO_STEALTH_BROWSER when none comes within the grace period', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 20 });
    scheduler.addWorker(worker('b').value);
    await expect(scheduler.run(spec, { timeoutMs: 5_000, browserClass: 'stealth' })).rejects.toEqual(
      new TaskError('NO_STEALTH_BROWSER', 'No stealth browser is connected to take this task'),
    );
  });
});
