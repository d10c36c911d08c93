import { describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';
import { hubUrlOf } from '../../../server/browsers/browser-node/hub-url';

const capture: PageCapture = {
  url: 'http://example.test/',
  statusCode: 200,
  rawHtml: '<html></html>',
  renderedHtml: '<html></html>',
};
const spec = { url: 'http://example.test/', waitForMs: 0 };

function fakeWorker(id: string, capacity: number, extra: Partial<Worker> = {}) {
  const sent: string[] = [];
  const worker: Worker = {
    id,
    capacity,
    send: ({ taskId }) => void sent.push(taskId),
    cancel: () => undefined,
    ...extra,
  };
  return { worker, sent };
}

describe('task scheduler: browser nodes', () => {
  it('a draining worker finishes what it runs and takes nothing new', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const a = fakeWorker('a', 2);
    scheduler.addWorker(a.worker);
    const running = scheduler.run(spec, { timeoutMs: 5_000 });
    expect(scheduler.spareSlots('basic')).toBe(1);
    expect(scheduler.drain('a')).toBe(true);
    expect(scheduler.spareSlots('basic')).toBe(0);
    expect(scheduler.hasPoolBrowser('basic')).toBe(false);
    const waiting = scheduler.run(spec, { timeoutMs: 5_000 });
    expect(a.sent).toHaveLength(1);
    // The running task still completes on the draining worker.
    expect(scheduler.complete('a', a.sent[0] as string, { capture })).toBe(true);
    await expect(running).resolves.toEqual(capture);
    expect(a.sent).toHaveLength(1);
    // A fresh worker takes the waiting one.
    const b = fakeWorker('b', 1);
    scheduler.addWorker(b.worker);
    expect(b.sent).toHaveLength(1);
    scheduler.complete('b', b.sent[0] as string, { capture });
    await expect(waiting).resolves.toEqual(capture);
    expect(scheduler.drain('nobody')).toBe(false);
  });

  it("a team node's browser serves that team only, ahead of the shared pool", async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const own = fakeWorker('acme-node', 2, { teamId: 'acme' });
    const pool = fakeWorker('pool', 2);
    scheduler.addWorker(own.worker);
    scheduler.addWorker(pool.worker);
    // Spare slots are the shared pool's only: another instance's tasks may not go to acme's.
    expect(scheduler.spareSlots('basic')).toBe(2);
    expect(scheduler.hasPoolBrowser('basic', 'acme')).toBe(true);
    const acme = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'acme' });
    expect(own.sent).toHaveLength(1);
    const other = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'globex' });
    const another = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'globex' });
    expect(own.sent).toHaveLength(1);
    expect(pool.sent).toHaveLength(2);
    scheduler.complete('acme-node', own.sent[0] as string, { capture });
    for (const id of pool.sent) scheduler.complete('pool', id, { capture });
    await Promise.all([acme, other, another]);
    scheduler.removeWorker('pool');
    expect(scheduler.hasPoolBrowser('basic')).toBe(false);
    expect(scheduler.hasPoolBrowser('basic', 'globex')).toBe(false);
  });

  it('job pages filling every tab leave them spare for other instances’ scrapes, which go first', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const a = fakeWorker('a', 2);
    scheduler.addWorker(a.worker);
    const pages = [1, 2, 3].map(() => scheduler.run(spec, { timeoutMs: 5_000, priority: 'background' }));
    expect(a.sent).toHaveLength(2);
    expect(scheduler.spareSlots('basic')).toBe(2);
    const relayed = scheduler.run(spec, { timeoutMs: 5_000 });
    expect(scheduler.spareSlots('basic')).toBe(1);
    // The next tab that frees goes to the scrape, ahead of the third page.
    scheduler.complete('a', a.sent[0] as string, { capture });
    expect(a.sent).toHaveLength(3);
    scheduler.complete('a', a.sent[2] as string, { capture });
    await expect(relayed).resolves.toEqual(capture);
    scheduler.complete('a', a.sent[1] as string, { capture });
    scheduler.complete('a', a.sent[3] as string, { capture });
    await Promise.all(pages);
  });

  it('spare slots count the tasks of that class already waiting here', () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const a = fakeWorker('a', 1);
    scheduler.addWorker(a.worker);
    void scheduler.run(spec, { timeoutMs: 5_000 }).catch(() => undefined);
    void scheduler.run(spec, { timeoutMs: 5_000 }).catch(() => undefined);
    expect(scheduler.spareSlots('basic')).toBe(0);
    expect(scheduler.spareSlots('stealth')).toBe(0);
    scheduler.close();
  });
});

describe('hubUrlOf', () => {
  it("turns the server's address into its hub's", () => {
    expect(hubUrlOf('https://api.example')).toBe('wss://api.example/browser-hub');
    expect(hubUrlOf('http://10.0.0.5:3002/')).toBe('ws://10.0.0.5:3002/browser-hub');
    expect(hubUrlOf('https://example.com/tabhive/?x=1')).toBe('wss://example.com/tabhive/browser-hub');
    expect(hubUrlOf('ws://127.0.0.1:3002/browser-hub')).toBe('ws://127.0.0.1:3002/browser-hub');
    expect(() => hubUrlOf('ftp://example.com')).toThrow(/http\(s\)/);
  });
});
