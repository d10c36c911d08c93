import { describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';

const capture: PageCapture = {
  url: 'http://example.test/',
  statusCode: 200,
  rawHtml: '<html></html>',
  renderedHtml: '<html></html>',
  stateClean: true,
};
const spec = { url: 'http://example.test/', waitForMs: 0 };

function fakeWorker(id: string, extra: Partial<Worker> = {}) {
  const sent: string[] = [];
  const worker: Worker = {
    id,
    capacity: 1,
    send: ({ taskId }) => void sent.push(taskId),
    cancel: () => undefined,
    ...extra,
  };
  return { worker, sent };
}

describe('task scheduler: where a capture was made', () => {
  it("marks a team node's capture as the team's, whatever the node claims", async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const node = fakeWorker('acme-node', { teamId: 'acme' });
    scheduler.addWorker(node.worker);
    const run = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'acme' });
    scheduler.complete('acme-node', node.sent[0] as string, {
      capture: { ...capture, teamNode: false, donated: false },
    });
    await expect(run).resolves.toEqual({ ...capture, teamNode: true });
  });

  it("leaves a pool browser's capture unmarked, and drops a pool browser's claims", async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    const pool = fakeWorker('pool');
    scheduler.addWorker(pool.worker);
    const run = scheduler.run(spec, { timeoutMs: 5_000, teamId: 'acme' });
    scheduler.complete('pool', pool.sent[0] as string, {
      capture: { ...capture, teamNode: true, donated: true },
    });
    await expect(run).resolves.toEqual(capture);
  });
});
