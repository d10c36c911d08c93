import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '../../platform/log';
import {
  StoreUnavailableError,
  type MonitorCheckStore,
  type StoredMonitorCheck,
  type MonitorStore,
  type StoredMonitor,
} from '../../platform/store';
import { nextRunAfter } from './monitor-schedule';
import { emptySummary } from './monitor-view';
import { type CheckRunnerDeps, runMonitorCheck } from './run-monitor-check';

/** How long a claimed check's lease lasts; it is renewed at a third of this while the check runs. */
export const MONITOR_LEASE_MS = 60_000;
/** How often each instance looks for due monitors. */
export const MONITOR_TICK_MS = 500;
/** Due monitors one instance looks at per tick (those whose check still runs are skipped). */
const CLAIMS_PER_TICK = 100;
/** Old checks are purged this often (retentionDays). */
const PURGE_INTERVAL_MS = 10 * 60_000;
/** On stop, running checks get this long to finish before they are told to stop. */
const STOP_GRACE_MS = 15_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A manual run waits this often and long for the lease of a check that has just ended. */
const ENDING_CHECK_RETRIES = 20;
const ENDING_CHECK_RETRY_MS = 100;

/**
 * The id of the check of the run due at `due`: the same on every instance, so that inserting the
 * check claims the run (a UUID's shape, from a SHA-256 of the monitor and the time).
 */
export function scheduledCheckId(monitorId: string, due: Date): string {
  const hex = createHash('sha256').update(`${monitorId}|${due.toISOString()}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface MonitorScheduler {
  start(): void;
  stop(): Promise<void>;
  /**
   * Starts a manual check of the team's monitor now. Undefined when the monitor is not the
   * team's; 'running' when a check of it holds the lease.
   */
  runNow(teamId: string, id: string): Promise<StoredMonitorCheck | 'running' | undefined>;
}

/**
 * Runs due monitors on this instance. Every instance on one database ticks. A due run is taken
 * by inserting its check under an id fixed by the monitor and the due time (scheduledCheckId):
 * a unique key, which holds on every backend, so the run happens once wherever it is taken. The
 * monitor's lease (monitor-store.ts) keeps two checks of one monitor from running at once. The
 * next run is counted from the time of the claim, so runs missed while no instance was up
 * collapse into one. A running check renews its lease; an instance that dies stops renewing,
 * and once the lease expires another instance takes the monitor's next run and marks the dead
 * instance's check failed.
 */
export function createMonitorScheduler({
  monitors,
  checks,
  runner,
  log,
  leaseMs = MONITOR_LEASE_MS,
  tickMs = MONITOR_TICK_MS,
}: {
  monitors: MonitorStore;
  checks: MonitorCheckStore;
  runner: CheckRunnerDeps;
  log: Log;
  leaseMs?: number;
  tickMs?: number;
}): MonitorScheduler {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let ticking = false;
  let lastPurge = 0;

  const newCheck = (
    monitor: StoredMonitor,
    id: string,
    trigger: StoredMonitorCheck['trigger'],
    scheduledFor: Date | null,
  ): StoredMonitorCheck => {
    const now = new Date();
    return {
      _id: id,
      monitorId: monitor._id,
      teamId: monitor.teamId,
      status: 'running',
      trigger,
      scheduledFor,
      startedAt: now,
      summary: emptySummary(),
      targetResults: [],
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + monitor.retentionDays * DAY_MS),
    };
  };

  /** Runs a check whose lease this instance holds to its end, renewing the lease, then gives it back. */
  const execute = (monitor: StoredMonitor, check: StoredMonitorCheck, leaseToken: string) => {
    const controller = new AbortController();
    const renew = setInterval(() => {
      monitors
        .renewLease(monitor._id, leaseToken, leaseMs)
        .then((held) => {
          if (!held) controller.abort();
        })
        .catch((err: unknown) =>
          log.warn('could not renew a monitor lease', { monitorId: monitor._id, error: String(err) }),
        );
    }, leaseMs / 3);
    const done = (async () => {
      let summary: StoredMonitorCheck['summary'] | undefined;
      try {
        await monitors.showCheck(monitor._id, check._id);
        summary = (await runMonitorCheck(monitor, check, controller.signal, runner))?.summary;
      } catch (err) {
        log.error('monitor check failed', { monitorId: monitor._id, checkId: check._id, error: String(err) });
        await checks.abandon(check._id, `The check failed: ${String(err)}`).catch(() => undefined);
      } finally {
        clearInterval(renew);
        await monitors
          .showCheck(monitor._id, undefined, summary)
          .then(() => monitors.releaseLease(monitor._id, leaseToken))
          .catch((err: unknown) =>
            log.warn('could not release a monitor lease', { monitorId: monitor._id, error: String(err) }),
          );
        running.delete(check._id);
      }
    })();
    running.set(check._id, { controller, done });
  };

  /** The check of an expired lease: its instance stopped before the check ended. */
  const abandonOrphan = async (checkId: string | undefined) => {
    if (checkId !== undefined && !running.has(checkId)) {
      await checks.abandon(checkId, 'The server instance running this check stopped before it finished');
    }
  };

  /**
   * Takes one due run: the monitor's lease (skipped while a check runs; the run then happens once
   * the check ends), then the check whose id the due time fixes (another instance may have taken
   * it already), then the schedule moves on, counted from now.
   */
  const claim = async (candidate: StoredMonitor, due: Date, now: Date) => {
    const checkId = scheduledCheckId(candidate._id, due);
    const lease = await monitors.acquireLease(candidate._id, checkId, leaseMs, now);
    if ('heldBy' in lease) return;
    let started = false;
    try {
      await abandonOrphan(lease.expiredCheckId);
      let next: Date;
      try {
        next = nextRunAfter(candidate, now);
      } catch (err) {
        log.warn('monitor schedule has no next run', { monitorId: candidate._id, error: String(err) });
        return;
      }
      const check = newCheck(candidate, checkId, 'scheduled', due);
      const claimed = await checks.claim(check);
      await monitors.advance(candidate._id, due, next, now);
      if (!claimed) {
        // Taken before: ran already, or its instance died (we hold the lease, so it no longer runs).
        await abandonOrphan(checkId);
        return;
      }
      const current = await monitors.get(candidate.teamId, candidate._id);
      if (current === undefined) {
        await checks.abandon(checkId, 'The monitor was deleted');
        return;
      }
      execute(current, check, lease.token);
      started = true;
    } finally {
      if (!started) await monitors.releaseLease(candidate._id, lease.token);
    }
  };

  const claimDue = async () => {
    const now = new Date();
    for (const candidate of await monitors.due(now, CLAIMS_PER_TICK)) {
      if (stopped) return;
      if (candidate.nextRunAt !== null) await claim(candidate, candidate.nextRunAt, now);
    }
  };

  const tick = async () => {
    if (ticking || stopped) return;
    ticking = true;
    try {
      await claimDue();
      if (Date.now() - lastPurge > PURGE_INTERVAL_MS) {
        lastPurge = Date.now();
        await checks.purgeExpired();
      }
    } catch (err) {
      if (err instanceof StoreUnavailableError)
        log.warn('monitor schedule paused: database unavailable', { error: err.message });
      else log.error('monitor schedule tick failed', { error: String(err) });
    } finally {
      ticking = false;
    }
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(() => void tick(), tickMs);
      timer.unref();
      void tick();
    },

    async stop() {
      stopped = true;
      clearInterval(timer);
      const all = () => Promise.all([...running.values()].map((entry) => entry.done));
      let grace: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        all().then(() => true),
        new Promise<boolean>((resolve) => (grace = setTimeout(() => resolve(false), STOP_GRACE_MS))),
      ]);
      clearTimeout(grace);
      if (!waited) {
        for (const entry of running.values()) entry.controller.abort();
        await all();
      }
    },

    async runNow(teamId, id) {
      const monitor = await monitors.get(teamId, id);
      if (monitor === undefined) return undefined;
      const checkId = randomUUID();
      let lease = await monitors.acquireLease(id, checkId, leaseMs);
      // A check that has just ended gives its lease back a moment later: that is not a running check.
      for (let attempt = 0; 'heldBy' in lease && attempt < ENDING_CHECK_RETRIES; attempt++) {
        if (lease.heldBy !== '') {
          const holder = await checks.get(id, lease.heldBy);
          if (holder === undefined || holder.status === 'running') break;
        }
        await sleep(ENDING_CHECK_RETRY_MS);
        lease = await monitors.acquireLease(id, checkId, leaseMs);
      }
      if ('heldBy' in lease) return 'running';
      let started = false;
      try {
        await abandonOrphan(lease.expiredCheckId);
        const check = newCheck(monitor, checkId, 'manual', null);
        await checks.claim(check);
        execute(monitor, check, lease.token);
        started = true;
        return check;
      } finally {
        if (!started) await monitors.releaseLease(id, lease.token);
      }
    },
  };
}
