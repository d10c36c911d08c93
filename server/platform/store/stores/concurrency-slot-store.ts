import { randomUUID } from 'node:crypto';
import type { Collection, Database, StoredDocument } from '../database';

export interface ConcurrencySlot extends StoredDocument {
  teamId: string;
  /** A slot whose instance died stops counting at this time; a live one is renewed before. */
  expiresAt: Date;
}

/**
 * The single scrapes each team runs now, on every instance sharing the database: one document per
 * scrape in flight. Admission inserts first and counts after (team-limits.ts), so two instances
 * admitting at once may both back off but can never both get in past the limit: an insert is
 * atomic on every backend, where a conditional counter update is not on all of them (FerretDB 1.x).
 */
export function createConcurrencySlotStore(database: Database) {
  const slots: Collection<ConcurrencySlot> = database.collection('concurrency_slots');

  return {
    async ensureIndexes() {
      await slots.createIndex({ name: 'team_expiresAt', keys: { teamId: 1, expiresAt: 1 } });
      await slots.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async take(teamId: string, ttlMs: number, now = new Date()): Promise<string> {
      const id = randomUUID();
      await slots.insertOne({ _id: id, teamId, expiresAt: new Date(now.getTime() + ttlMs) });
      return id;
    },

    countLive: (teamId: string, now = new Date()) =>
      slots.countDocuments({ teamId, expiresAt: { $gt: now } }),

    async renew(id: string, ttlMs: number, now = new Date()) {
      await slots.updateOne({ _id: id }, { $set: { expiresAt: new Date(now.getTime() + ttlMs) } });
    },

    async give(id: string) {
      await slots.deleteOne({ _id: id });
    },

    async purgeExpired(now = new Date()) {
      return (await slots.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type ConcurrencySlotStore = ReturnType<typeof createConcurrencySlotStore>;
