import { randomUUID } from 'node:crypto';
import type { Collection, Database, StoredDocument } from '../database';

export interface ChangeSnapshot extends StoredDocument {
  teamId: string;
  /** The URL as the caller gave it (`sourceURL`): history is kept per team, URL and tag. */
  url: string;
  /** Separate histories for the same URL; null is the default history. */
  tag: string | null;
  scrapedAt: Date;
  statusCode: number;
  markdown: string;
  json?: unknown;
}

export type NewChangeSnapshot = Omit<ChangeSnapshot, '_id'>;

/** Earlier versions of pages, for change tracking: "what did this page say last time?". */
export function createChangeSnapshotStore(database: Database) {
  const snapshots: Collection<ChangeSnapshot> = database.collection('change_snapshots');

  return {
    async ensureIndexes() {
      await snapshots.createIndex({
        name: 'team_url_tag_time',
        keys: { teamId: 1, url: 1, tag: 1, scrapedAt: -1 },
      });
    },

    /** The most recent snapshot of (team, url, tag) taken before `before`. */
    latest({ teamId, url, tag, before }: { teamId: string; url: string; tag: string | null; before?: Date }) {
      return snapshots.findOne(
        { teamId, url, tag, ...(before === undefined ? {} : { scrapedAt: { $lt: before } }) },
        { sort: { scrapedAt: -1 } },
      );
    },

    async put(snapshot: NewChangeSnapshot): Promise<ChangeSnapshot> {
      const stored = { ...snapshot, _id: randomUUID() };
      await snapshots.insertOne(stored);
      return stored;
    },
  };
}

export type ChangeSnapshotStore = ReturnType<typeof createChangeSnapshotStore>;
