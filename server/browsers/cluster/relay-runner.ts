import type { BrowserClass } from '../../../shared/protocol/messages';
import { type BrowserHub, TaskError } from '../hub';
import type { Log } from '../../platform/log';
import type { RelayedTask, RelayedTaskStore } from '../../platform/store';

/** A relayed task's lease, renewed while its browser works; a dead instance's runs expire this soon. */
export const RELAY_LEASE_MS = 15_000;
const RELAY_HEARTBEAT_MS = 5_000;
/** How often the store is asked for relayed tasks while this instance has spare tabs. */
const IDLE_POLL_MS = 200;
const UNAVAILABLE_POLL_MS = 2_000;
/** Codes after which another instance may do better: the task goes back to the queue. */
const HAND_BACK = new Set(['NO_BROWSER', 'NO_STEALTH_BROWSER', 'BROWSER_LOST']);
/** The store's document limit (16 MB) with room for the rest of the task. */
const MAX_RELAYED_CAPTURE_CHARS = 15 * 1024 * 1024;

const CLASSES: readonly BrowserClass[] = ['basic', 'stealth'];
const jittered = (ms: number) => ms * (0.5 + Math.random());

/**
 * Runs other instances' browser tasks on the browsers attached here, while they have tabs to spare:
 * claims a relayed task from the store with a lease, runs it through this hub (so it queues with
 * this instance's own tasks), renews the lease while it runs and writes the answer back. A task
 * its origin cancelled meanwhile is stopped here too.
 */
export function createRelayRunner({
  relayed,
  hub,
  owner,
  log,
}: {
  relayed: RelayedTaskStore;
  hub: BrowserHub;
  /** This instance's id. */
  owner: string;
  log: Log;
}) {
  const running = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let unavailable = false;

  const run = async (task: RelayedTask) => {
    const token = task.leaseToken as string;
    const localId = `relay:${task._id}:${token}`;
    const heartbeat = setInterval(() => {
      void relayed
        .heartbeat(task._id, token, RELAY_LEASE_MS)
        .then((held) => {
          if (!held) hub.cancelTask(localId, 'cancelled by the instance that asked for it');
        })
        .catch(() => undefined);
    }, RELAY_HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const capture = await hub.runTask(task.spec, {
        timeoutMs: Math.max(1, task.deadlineAt.getTime() - Date.now()),
        browserClass: task.browserClass,
        ...(task.teamId === undefined ? {} : { teamId: task.teamId }),
        isolated: task.isolated,
        taskId: localId,
      });
      if (JSON.stringify(capture).length > MAX_RELAYED_CAPTURE_CHARS) {
        await relayed.settle(task._id, token, {
          error: {
            code: 'BROWSER_ERROR',
            message: 'The page is too large to hand between server instances (over 15 MB captured)',
          },
        });
        return;
      }
      await relayed.settle(task._id, token, { capture });
    } catch (err) {
      const error =
        err instanceof TaskError
          ? { code: err.code, message: err.message }
          : { code: 'BROWSER_ERROR', message: err instanceof Error ? err.message : String(err) };
      if (HAND_BACK.has(error.code)) await relayed.release(task._id, token);
      else await relayed.settle(task._id, token, { error });
    } finally {
      clearInterval(heartbeat);
    }
  };

  const tick = async () => {
    for (const browserClass of CLASSES) {
      while (!stopped && hub.spareSlots(browserClass) > 0) {
        const task = await relayed.claimNext({ owner, classes: [browserClass], leaseMs: RELAY_LEASE_MS });
        if (task === undefined) break;
        running.add(task._id);
        // Handed to the hub now, so that spareSlots counts it before the next claim.
        void run(task)
          .catch((err: unknown) => log.warn('relayed task failed', { task: task._id, error: String(err) }))
          .finally(() => {
            running.delete(task._id);
            wake();
          });
      }
    }
  };

  const loop = () => {
    if (stopped) return;
    clearTimeout(timer);
    tick()
      .then(() => {
        if (unavailable) log.info('relayed tasks available again');
        unavailable = false;
      })
      .catch((err: unknown) => {
        if (!unavailable) log.warn('relayed tasks unavailable', { error: String(err) });
        unavailable = true;
      })
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(loop, jittered(unavailable ? UNAVAILABLE_POLL_MS : IDLE_POLL_MS));
        timer.unref();
      });
  };
  const wake = () => {
    if (stopped || unavailable) return;
    clearTimeout(timer);
    timer = setTimeout(loop, 0);
  };

  return {
    start: loop,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    inFlight: () => running.size,
  };
}

export type RelayRunner = ReturnType<typeof createRelayRunner>;
