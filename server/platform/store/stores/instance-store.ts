import type { BrowserClass } from '../../../../shared/protocol/messages';
import type { Collection, Database, StoredDocument } from '../database';

/** One API instance as it last reported itself (cluster/instance-registry.ts). */
export interface InstanceRecord extends StoredDocument {
  /** `_id` is the instance id, new at every start. */
  /** Tabs of the shared pool's browsers attached to it, by class (not draining; team nodes' and donated ones not counted). */
  poolTabs: Record<BrowserClass, number>;
  /** All browsers attached to it. */
  browsers: number;
  startedAt: Date;
  updatedAt: Date;
  /** Not heard from since: gone (crashed, killed, partitioned). */
  expiresAt: Date;
}

/** The API instances sharing the database, each renewing its record every few seconds. */
export function createInstanceStore(database: Database) {
  const instances: Collection<InstanceRecord> = database.collection('instances');

  return {
    async ensureIndexes() {
      await instances.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async report(record: InstanceRecord) {
      await instances.replaceOne({ _id: record._id }, record, { upsert: true });
    },

    live: (now = new Date()) => instances.find({ expiresAt: { $gt: now } }, { sort: { startedAt: 1 } }),

    async remove(id: string) {
      await instances.deleteOne({ _id: id });
    },

    async purgeExpired(now = new Date()) {
      return (await instances.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type InstanceStore = ReturnType<typeof createInstanceStore>;
