import { randomUUID } from 'node:crypto';
import {
  insertIfAbsent,
  type Collection,
  type Database,
  type StoredDocument,
  type Update,
} from '../database';

export interface MonitorSummaryCounts {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export interface StoredMonitor extends StoredDocument {
  teamId: string;
  name: string;
  status: 'active' | 'paused';
  /** The schedule as cron (5 fields, or 6 with seconds), evaluated in `timezone`. */
  cron: string;
  /** The text the caller gave instead of a cron, kept to say what it became. */
  scheduleText?: string;
  timezone: string;
  /** The targets as accepted (validated JSON, each with its id); parsed again where they run. */
  targets: unknown[];
  webhook?: unknown;
  notification?: unknown;
  retentionDays: number;
  goal?: string;
  judgeEnabled: boolean;
  /** The next scheduled run; null while paused. */
  nextRunAt: Date | null;
  lastRunAt?: Date;
  /** The check that runs now, while one does (the lease itself is in `monitor_leases`). */
  currentCheckId?: string;
  lastCheckSummary?: MonitorSummaryCounts;
  createdAt: Date;
  updatedAt: Date;
}

export type MonitorChanges = Partial<
  Pick<
    StoredMonitor,
    | 'name'
    | 'status'
    | 'cron'
    | 'timezone'
    | 'targets'
    | 'retentionDays'
    | 'judgeEnabled'
    | 'nextRunAt'
    | 'scheduleText'
    | 'webhook'
    | 'notification'
    | 'goal'
  >
>;

/** The lock that keeps two checks of one monitor from running at once; `_id` is the monitor's id. */
export interface MonitorLease extends StoredDocument {
  token: string;
  checkId: string;
  expiresAt: Date;
}

/**
 * Monitors and their schedule, and each monitor's lease. The lease is a document of its own whose
 * `_id` is the monitor's, taken by inserting it: a unique key holds on every backend, also on
 * those that do not isolate conditional updates between processes (FerretDB 1.x), so with several
 * instances on one database never two checks of a monitor run at once. A lease its holder stopped
 * renewing (the instance died) expires, and the next taker removes it.
 */
export function createMonitorStore(database: Database) {
  const monitors: Collection<StoredMonitor> = database.collection('monitors');
  const leases: Collection<MonitorLease> = database.collection('monitor_leases');

  return {
    async ensureIndexes() {
      await monitors.createIndex({ name: 'team_created', keys: { teamId: 1, createdAt: -1 } });
      await monitors.createIndex({ name: 'due', keys: { status: 1, nextRunAt: 1 } });
    },

    async insert(monitor: StoredMonitor): Promise<void> {
      await monitors.insertOne(monitor);
    },

    /** The team's monitor; another team's is not found. */
    get(teamId: string, id: string) {
      return monitors.findOne({ _id: id, teamId });
    },

    list(teamId: string, { offset, limit }: { offset: number; limit: number }) {
      return monitors.find({ teamId }, { sort: { createdAt: -1, _id: 1 }, skip: offset, limit });
    },

    /** Applies `changes` (undefined values are cleared) and returns the monitor as it is after. */
    update(teamId: string, id: string, changes: MonitorChanges, now = new Date()) {
      const $set: Record<string, unknown> = { updatedAt: now };
      const $unset: Record<string, true> = {};
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined) $unset[key] = true;
        else $set[key] = value;
      }
      const update: Update = Object.keys($unset).length === 0 ? { $set } : { $set, $unset };
      return monitors.findOneAndUpdate({ _id: id, teamId }, update);
    },

    async remove(teamId: string, id: string): Promise<boolean> {
      const { deleted } = await monitors.deleteOne({ _id: id, teamId });
      if (deleted === 1) await leases.deleteOne({ _id: id });
      return deleted === 1;
    },

    /** Active monitors whose next run is due, oldest first. */
    due(now: Date, limit: number) {
      return monitors.find({ status: 'active', nextRunAt: { $lte: now } }, { sort: { nextRunAt: 1 }, limit });
    },

    /** Moves the schedule on from the run due at `due`, unless that was done already. */
    async advance(id: string, due: Date, next: Date, now = new Date()): Promise<void> {
      await monitors.updateOne({ _id: id, nextRunAt: due }, { $set: { nextRunAt: next, lastRunAt: now } });
    },

    /**
     * Takes the monitor's lease for `checkId`: its token, or `heldBy` (the check holding it) while
     * another holder's lease is live. `expiredCheckId` names the check of a lease that had expired:
     * its instance died.
     */
    async acquireLease(
      id: string,
      checkId: string,
      leaseMs: number,
      now = new Date(),
    ): Promise<{ token: string; expiredCheckId?: string } | { heldBy: string }> {
      const token = randomUUID();
      const lease = () => ({ _id: id, token, checkId, expiresAt: new Date(now.getTime() + leaseMs) });
      if (await insertIfAbsent(leases, lease())) return { token };
      const held = await leases.findOne({ _id: id });
      if (held !== undefined && held.expiresAt.getTime() >= now.getTime()) return { heldBy: held.checkId };
      if (held !== undefined) await leases.deleteOne({ _id: id, token: held.token });
      if (!(await insertIfAbsent(leases, lease()))) return { heldBy: '' };
      return held === undefined ? { token } : { token, expiredCheckId: held.checkId };
    },

    /** Keeps a running check's lease alive; false when it was lost (expired and taken). */
    async renewLease(id: string, token: string, leaseMs: number, now = new Date()): Promise<boolean> {
      const { matched } = await leases.updateOne(
        { _id: id, token },
        { $set: { expiresAt: new Date(now.getTime() + leaseMs) } },
      );
      return matched === 1;
    },

    async releaseLease(id: string, token: string): Promise<void> {
      await leases.deleteOne({ _id: id, token });
    },

    /** Shows the running check on the monitor (or none), and the last check's summary once it ends. */
    async showCheck(id: string, checkId: string | undefined, summary?: MonitorSummaryCounts): Promise<void> {
      await monitors.updateOne(
        { _id: id },
        checkId === undefined
          ? {
              ...(summary === undefined ? {} : { $set: { lastCheckSummary: summary } }),
              $unset: { currentCheckId: true },
            }
          : { $set: { currentCheckId: checkId } },
      );
    },
  };
}

export type MonitorStore = ReturnType<typeof createMonitorStore>;
