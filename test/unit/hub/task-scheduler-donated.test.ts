import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import type { Donation } from '../../../server/browsers/hub/donation';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';

const capture: PageCapture = { url: 'http://members.test/', statusCode: 200, rawHtml: '', renderedHtml: '' };
const members: PageTaskSpec = { url: 'http://members.test/account', waitForMs: 0 };
const elsewhere: PageTaskSpec = { url: 'http://other.test/', waitForMs: 0 };
const terms: Donation = {
  teamId: 'a',
  enabled: true,
  allowedDomains: ['members.test'],
  maxTabs: 1,
  allowJavascript: false,
};

function worker(id: string, donation?: Donation) {
  const sent: string[] = [];
  const value: Worker = {
    id,
    capacity: 1,
    ...(donation === undefined ? {} : { donation }),
    send: ({ taskId }) => void sent.push(taskId),
    cancel: () => undefined,
  };
  return { value, sent };
}

describe('task scheduler and donated browsers', () => {
  it("sends the team's tasks on allowed domains to its donated browser, and marks the capture", async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool');
    const donated = worker('donated', terms);
    scheduler.addWorker(pool.value);
    scheduler.addWorker(donated.value);
    const run = scheduler.run(members, { timeoutMs: 5_000, teamId: 'a' });
    expect(pool.sent).toEqual([]);
    expect(donated.sent).toHaveLength(1);
    scheduler.complete('donated', donated.sent[0] as string, { capture: { ...capture, donated: false } });
    await expect(run).resolves.toEqual({ ...capture, donated: true });
    expect(scheduler.donatedCovers('a', members.url)).toBe(true);
    expect(scheduler.donatedCovers('b', members.url)).toBe(false);
  });

  it("never gives a donated browser another team's task, nor its own team's task elsewhere", async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool');
    const donated = worker('donated', terms);
    scheduler.addWorker(donated.value);
    scheduler.addWorker(pool.value);
    const forB = scheduler.run(members, { timeoutMs: 5_000, teamId: 'b' });
    expect(pool.sent).toHaveLength(1);
    scheduler.complete('pool', pool.sent[0] as string, { capture });
    await expect(forB).resolves.toEqual(capture);
    const outside = scheduler.run(elsewhere, { timeoutMs: 5_000, teamId: 'a' });
    expect(pool.sent).toHaveLength(2);
    scheduler.complete('pool', pool.sent[1] as string, { capture });
    await outside;
    expect(donated.sent).toEqual([]);
    // Nor an anonymous task, and donated browsers do not count as pool capacity.
    void scheduler.run(members, { timeoutMs: 5_000 }).catch(() => undefined);
    expect(donated.sent).toEqual([]);
    expect(scheduler.workerCount('basic')).toBe(1);
    expect(scheduler.workerCount()).toBe(2);
    scheduler.close();
  });

  it('waits for the busy donated browser rather than scraping its domain without the login', () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool');
    const donated = worker('donated', terms);
    scheduler.addWorker(pool.value);
    scheduler.addWorker(donated.value);
    void scheduler.run(members, { timeoutMs: 5_000, teamId: 'a' }).catch(() => undefined);
    void scheduler.run(members, { timeoutMs: 5_000, teamId: 'a' }).catch(() => undefined);
    expect(donated.sent).toHaveLength(1);
    expect(pool.sent).toEqual([]);
    scheduler.complete('donated', donated.sent[0] as string, { capture });
    expect(donated.sent).toHaveLength(2);
    scheduler.close();
  });

  it('refuses executeJavascript before dispatch unless the owner allows scripts', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool');
    const donated = worker('donated', terms);
    scheduler.addWorker(pool.value);
    scheduler.addWorker(donated.value);
    const scripted = {
      ...members,
      actions: [{ type: 'executeJavascript' as const, script: 'document.cookie' }],
    };
    await expect(scheduler.run(scripted, { timeoutMs: 5_000, teamId: 'a' })).rejects.toMatchObject({
      code: 'DONATED_BROWSER_REFUSED',
    });
    expect(donated.sent).toEqual([]);
    expect(pool.sent).toEqual([]);

    const permissive = worker('permissive', { ...terms, allowJavascript: true });
    scheduler.addWorker(permissive.value);
    void scheduler.run(scripted, { timeoutMs: 5_000, teamId: 'a' }).catch(() => undefined);
    expect(permissive.sent).toHaveLength(1);
    expect(donated.sent).toEqual([]);
    scheduler.close();
  });

  it('leaves a paused donated browser out and falls back to the pool', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool');
    const paused = worker('paused', { ...terms, enabled: false });
    scheduler.addWorker(pool.value);
    scheduler.addWorker(paused.value);
    expect(scheduler.donatedCovers('a', members.url)).toBe(false);
    void scheduler.run(members, { timeoutMs: 5_000, teamId: 'a' }).catch(() => undefined);
    expect(pool.sent).toHaveLength(1);
    expect(paused.sent).toEqual([]);
    scheduler.close();
  });
});

describe('a task for the donated browser only (donatedOnly)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never goes to the pool, waits past the no-browser grace for the donated browser, and runs there', async () => {
    vi.useFakeTimers();
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool');
    scheduler.addWorker(pool.value);
    const run = scheduler.run(members, { timeoutMs: 60_000, teamId: 'a', donatedOnly: true });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pool.sent).toEqual([]);
    expect(scheduler.snapshot().queued.interactive).toBe(1);

    const donated = worker('donated', terms);
    scheduler.addWorker(donated.value);
    expect(donated.sent).toHaveLength(1);
    scheduler.complete('donated', donated.sent[0] as string, { capture });
    await expect(run).resolves.toEqual({ ...capture, donated: true });
    expect(pool.sent).toEqual([]);
    scheduler.close();
  });

  it('fails with DONATED_BROWSER_UNAVAILABLE when none took it by its deadline', async () => {
    vi.useFakeTimers();
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const pool = worker('pool');
    const paused = worker('paused', { ...terms, enabled: false });
    const otherTeams = worker('team-b', { ...terms, teamId: 'b' });
    scheduler.addWorker(pool.value);
    scheduler.addWorker(paused.value);
    scheduler.addWorker(otherTeams.value);
    const run = scheduler.run(members, { timeoutMs: 10_000, teamId: 'a', donatedOnly: true });
    const failed = expect(run).rejects.toMatchObject({ code: 'DONATED_BROWSER_UNAVAILABLE' });
    await vi.advanceTimersByTimeAsync(10_000);
    await failed;
    expect(pool.sent).toEqual([]);
    expect(paused.sent).toEqual([]);
    expect(otherTeams.sent).toEqual([]);
    scheduler.close();
  });

  it('says which of the team’s connected donated browsers take a URL, and whether each is full', () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 1_000 });
    const donated = worker('donated', terms);
    scheduler.addWorker(donated.value);
    expect(scheduler.donatedBrowsersFor('a', members.url)).toEqual([{ browserId: 'donated', busy: false }]);
    expect(scheduler.donatedBrowsersFor('b', members.url)).toEqual([]);
    expect(scheduler.donatedBrowsersFor('a', elsewhere.url)).toEqual([]);
    void scheduler.run(members, { timeoutMs: 5_000, teamId: 'a', donatedOnly: true }).catch(() => undefined);
    expect(scheduler.donatedBrowsersFor('a', members.url)).toEqual([{ browserId: 'donated', busy: true }]);
    scheduler.close();
  });
});
