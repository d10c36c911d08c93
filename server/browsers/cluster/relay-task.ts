import { randomUUID } from 'node:crypto';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { TaskError, isTaskFailureCode, type RunOptions } from '../hub';
import type { RelayedTaskStore } from '../../platform/store';

/** First and longest wait between two looks at a relayed task's answer. */
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 250;
/** How long a relayed task waits while no instance has a browser of its class (as the hub's own grace). */
export const RELAY_NO_BROWSER_GRACE_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Hands a browser task to another instance through the store and waits for its answer: the
 * instance that took the request has no browser for it. The answer is read and removed; a task
 * still unanswered at its deadline is cancelled (so no instance starts it late) and fails as a
 * timeout would here. While no instance reports a browser of its class for the grace period, it
 * fails as NO_BROWSER, as the hub would.
 */
export async function relayTask(
  {
    relayed,
    origin,
    browsersFor,
  }: {
    relayed: RelayedTaskStore;
    origin: string;
    /** Pool browsers of the class anywhere in the cluster, as the registry last saw them. */
    browsersFor(spec: PageTaskSpec, options: RunOptions): number;
  },
  spec: PageTaskSpec,
  options: RunOptions,
): Promise<PageCapture> {
  const id = options.taskId ?? randomUUID();
  const startedAt = Date.now();
  const deadlineAt = startedAt + options.timeoutMs;
  await relayed.enqueue({
    _id: id,
    origin,
    spec,
    browserClass: options.browserClass ?? 'basic',
    ...(options.teamId === undefined ? {} : { teamId: options.teamId }),
    isolated: options.isolated ?? false,
    deadlineAt: new Date(deadlineAt),
  });
  let wait = FIRST_POLL_MS;
  let noBrowserSince: number | undefined;
  for (;;) {
    const now = Date.now();
    if (now >= deadlineAt) {
      await relayed.cancel(id).catch(() => undefined);
      throw new TaskError('SCRAPE_TIMEOUT', 'Scrape timed out');
    }
    if (browsersFor(spec, options) > 0) noBrowserSince = undefined;
    else if (noBrowserSince === undefined) noBrowserSince = now;
    else if (now - noBrowserSince >= RELAY_NO_BROWSER_GRACE_MS) {
      await relayed.cancel(id).catch(() => undefined);
      throw options.browserClass === 'stealth'
        ? new TaskError('NO_STEALTH_BROWSER', 'No stealth browser is connected to take this task')
        : new TaskError('NO_BROWSER', 'No browser is connected to take this task');
    }
    await sleep(Math.min(wait, deadlineAt - now));
    wait = Math.min(MAX_POLL_MS, wait * 2);
    // A store outage is waited out until the deadline, like a browser that is slow to answer.
    const settled = await relayed.isSettled(id).catch(() => false);
    if (!settled) continue;
    const task = await relayed.get(id).catch(() => undefined);
    if (task === undefined) continue;
    await relayed.remove(id).catch(() => undefined);
    if (task.capture !== undefined) return task.capture;
    const code = task.error?.code;
    throw new TaskError(
      isTaskFailureCode(code) ? code : 'BROWSER_ERROR',
      task.error?.message ?? 'The instance running this task failed',
    );
  }
}
