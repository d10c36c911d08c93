import { describe, expect, it } from 'vitest';
import type { Donation } from '../../../server/browsers/hub/donation';
import { createTaskScheduler, stateKeyOf, type Worker } from '../../../server/browsers/hub/task-scheduler';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';

const capture: PageCapture = { url: 'http://members.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };
const spec: PageTaskSpec = { url: 'http://members.test/account', waitForMs: 0 };
const terms: Donation = {
  teamId: 'A',
  enabled: true,
  allowedDomains: ['members.test'],
  maxTabs: 4,
  allowJavascript: true,
};

function worker(id: string, capacity: number, donation?: Donation) {
  const sent: Array<{ taskId: string; stateKey: string | undefined }> = [];
  const value: Worker = {
    id,
    capacity,
    ...(donation === undefined ? {} : { donation }),
    send: ({ taskId, stateKey }) => void sent.push({ taskId, stateKey }),
    cancel: () => undefined,
  };
  return { value, sent };
}

/** Browser profiles' tasks (`isolated`): a state of their own on a launched browser, alone. */
describe('task scheduler: isolated tasks', () => {
  it('gives each isolated task a state key of its own, never its team’s or another task’s', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool', 4);
    scheduler.addWorker(pool.value);
    const first = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A', isolated: true });
    expect(pool.sent).toHaveLength(1);
    const key = pool.sent[0]!.stateKey;
    expect(key).toMatch(/^task:/);
    expect(key).not.toBe(stateKeyOf('A'));
    scheduler.complete('pool', pool.sent[0]!.taskId, { capture });
    await first;

    const second = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A', isolated: true });
    expect(pool.sent[1]!.stateKey).toMatch(/^task:/);
    expect(pool.sent[1]!.stateKey).not.toBe(key);
    scheduler.complete('pool', pool.sent[1]!.taskId, { capture });
    await second;
  });

  it('runs alone on its browser: it waits for the browser to drain, and holds others off', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool', 4);
    scheduler.addWorker(pool.value);
    const plain = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A' });
    const isolated = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A', isolated: true });
    const later = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A' });
    // Free slots, but the team's task runs there: the isolated task waits, and claims the browser.
    expect(pool.sent.map((task) => task.stateKey)).toEqual([stateKeyOf('A')]);

    scheduler.complete('pool', pool.sent[0]!.taskId, { capture });
    await plain;
    expect(pool.sent).toHaveLength(2);
    expect(pool.sent[1]!.stateKey).toMatch(/^task:/);

    scheduler.complete('pool', pool.sent[1]!.taskId, { capture });
    await isolated;
    expect(pool.sent[2]!.stateKey).toBe(stateKeyOf('A'));
    scheduler.complete('pool', pool.sent[2]!.taskId, { capture });
    await later;
  });

  it('never goes to a donated browser, even one of its team that covers the URL', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const donated = worker('donated', 4, terms);
    const pool = worker('pool', 4);
    scheduler.addWorker(donated.value);
    scheduler.addWorker(pool.value);
    const run = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A', isolated: true });
    expect(donated.sent).toEqual([]);
    expect(pool.sent).toHaveLength(1);
    const result = scheduler.complete('pool', pool.sent[0]!.taskId, { capture });
    expect(result).toBe(true);
    expect((await run).donated).toBeUndefined();
  });

  it('fails for want of a launched browser when only donated ones are connected', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 20 });
    const donated = worker('donated', 4, terms);
    scheduler.addWorker(donated.value);
    await expect(
      scheduler.run(spec, { timeoutMs: 5_000, teamId: 'A', isolated: true }),
    ).rejects.toMatchObject({ code: 'NO_BROWSER' });
    expect(donated.sent).toEqual([]);
  });
});
