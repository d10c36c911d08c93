import { randomUUID } from 'node:crypto';
import type { BrowserClass, PageCapture, PageTaskSpec } from '../../../../shared/protocol/messages';
import type { Collection, Database, StoredDocument } from '../database';

export type RelayedTaskState = 'queued' | 'leased' | 'done' | 'failed' | 'cancelled';

/**
 * A browser task that the instance which took the request could not run (no browser of its class
 * is attached to it), handed through the store to an instance that has one.
 */
export interface RelayedTask extends StoredDocument {
  /** `_id` is the hub task id. The instance that waits for the answer. */
  origin: string;
  spec: PageTaskSpec;
  browserClass: BrowserClass;
  teamId?: string;
  isolated: boolean;
  state: RelayedTaskState;
  /** The task is worth nothing after this: it is neither claimed nor answered later. */
  deadlineAt: Date;
  leaseOwner?: string;
  leaseToken?: string;
  leaseExpiresAt?: Date;
  capture?: PageCapture;
  error?: { code: string; message: string };
  createdAt: Date;
  updatedAt: Date;
  /** Removed after this (the answer has been read long before). */
  expiresAt: Date;
}

export type NewRelayedTask = Pick<
  RelayedTask,
  '_id' | 'origin' | 'spec' | 'browserClass' | 'teamId' | 'isolated' | 'deadlineAt'
>;

/** Kept this long past its deadline, for a late read; purged after. */
const KEEP_AFTER_DEADLINE_MS = 10 * 60_000;

/**
 * The store side of relaying browser tasks between instances. Claims are conditional updates with
 * a fencing token, as page tasks' are: where a server does not isolate them (FerretDB 1.x), two
 * instances may both run one task, and only the holder of the last lease may answer it.
 */
export function createRelayedTaskStore(database: Database) {
  const tasks: Collection<RelayedTask> = database.collection('relayed_tasks');
  const holding = (id: string, leaseToken: string) => ({ _id: id, state: 'leased', leaseToken });

  return {
    async ensureIndexes() {
      await tasks.createIndex({ name: 'claim', keys: { state: 1, browserClass: 1, createdAt: 1 } });
      await tasks.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async enqueue(task: NewRelayedTask, now = new Date()) {
      await tasks.insertOne({
        ...task,
        state: 'queued',
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(task.deadlineAt.getTime() + KEEP_AFTER_DEADLINE_MS),
      });
    },

    /**
     * Leases the oldest live task of one of `classes` to `owner`: one whose lease expired (the
     * instance running it died) first, else a queued one.
     */
    async claimNext({
      owner,
      classes,
      leaseMs,
      now = new Date(),
    }: {
      owner: string;
      classes: readonly BrowserClass[];
      leaseMs: number;
      now?: Date;
    }) {
      const lease = {
        $set: {
          state: 'leased',
          leaseOwner: owner,
          leaseToken: randomUUID(),
          leaseExpiresAt: new Date(now.getTime() + leaseMs),
          updatedAt: now,
        },
      };
      const live = { browserClass: { $in: [...classes] }, deadlineAt: { $gt: now } };
      return (
        (await tasks.findOneAndUpdate({ ...live, state: 'leased', leaseExpiresAt: { $lt: now } }, lease, {
          sort: { createdAt: 1 },
        })) ?? (await tasks.findOneAndUpdate({ ...live, state: 'queued' }, lease, { sort: { createdAt: 1 } }))
      );
    },

    async heartbeat(id: string, leaseToken: string, leaseMs: number, now = new Date()) {
      const { matched } = await tasks.updateOne(holding(id, leaseToken), {
        $set: { leaseExpiresAt: new Date(now.getTime() + leaseMs), updatedAt: now },
      });
      return matched === 1;
    },

    /** Answers the task; false (and no change) when the token no longer holds it. */
    async settle(
      id: string,
      leaseToken: string,
      outcome: { capture: PageCapture } | { error: { code: string; message: string } },
      now = new Date(),
    ) {
      const { matched } = await tasks.updateOne(holding(id, leaseToken), {
        $set: {
          ...('capture' in outcome
            ? { state: 'done', capture: outcome.capture }
            : { state: 'failed', error: outcome.error }),
          updatedAt: now,
        },
        $unset: { leaseToken: true, leaseOwner: true, leaseExpiresAt: true },
      });
      return matched === 1;
    },

    /** Puts a task its runner could not finish (its browser went away) back for another instance. */
    async release(id: string, leaseToken: string, now = new Date()) {
      const { matched } = await tasks.updateOne(holding(id, leaseToken), {
        $set: { state: 'queued', updatedAt: now },
        $unset: { leaseToken: true, leaseOwner: true, leaseExpiresAt: true },
      });
      return matched === 1;
    },

    /** The waiting side gave up (deadline, cancel): nobody takes it up any more. */
    async cancel(id: string, now = new Date()) {
      await tasks.updateOne(
        { _id: id, state: { $in: ['queued', 'leased'] } },
        { $set: { state: 'cancelled', updatedAt: now } },
      );
    },

    /** Whether the task was cancelled (its runner stops it). */
    async isCancelled(id: string) {
      return (await tasks.findOne({ _id: id }))?.state === 'cancelled';
    },

    get: (id: string) => tasks.findOne({ _id: id }),

    /** Whether the answer is in, asked without reading the capture (several MB at times). */
    async isSettled(id: string) {
      return (await tasks.countDocuments({ _id: id, state: { $in: ['done', 'failed'] } })) > 0;
    },

    remove: (id: string) => tasks.deleteOne({ _id: id }),

    countQueued: (now = new Date()) => tasks.countDocuments({ state: 'queued', deadlineAt: { $gt: now } }),

    async purgeExpired(now = new Date()) {
      return (await tasks.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type RelayedTaskStore = ReturnType<typeof createRelayedTaskStore>;
