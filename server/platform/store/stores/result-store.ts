import type { Collection, Database, StoredDocument } from '../database';

/** How long results are kept for `GET /v2/scrape/:id` and job status pages (docs/wire-contract.md §4.2, §7.5). */
export const RESULT_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface StoredResult<D = unknown> extends StoredDocument {
  /** The scrape id (`metadata.scrapeId`). */
  teamId: string;
  /** The crawl or batch job the page belongs to, if any, and its order there. */
  jobId?: string;
  sequence?: number;
  document: D;
  createdAt: Date;
  expiresAt: Date;
}

/** Result documents of scrapes and of job pages, kept for a day. */
export function createResultStore(database: Database) {
  const results: Collection<StoredResult> = database.collection('documents');

  return {
    async ensureIndexes() {
      await results.createIndex({ name: 'job_sequence', keys: { jobId: 1, sequence: 1 } });
      await results.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async put<D>({
      id,
      teamId,
      document,
      jobId,
      sequence,
      now = new Date(),
    }: {
      id: string;
      teamId: string;
      document: D;
      jobId?: string;
      sequence?: number;
      now?: Date;
    }) {
      const result: StoredResult<D> = {
        _id: id,
        teamId,
        ...(jobId === undefined ? {} : { jobId }),
        ...(sequence === undefined ? {} : { sequence }),
        document,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESULT_RETENTION_MS),
      };
      // Idempotent: a page that is stored twice (a retried task) keeps one document.
      await results.replaceOne({ _id: id }, result, { upsert: true });
    },

    /** A result that has not expired yet; the caller checks the team. */
    async get(id: string, now = new Date()): Promise<StoredResult | undefined> {
      return results.findOne({ _id: id, expiresAt: { $gt: now } });
    },

    async listForJob(jobId: string, { skip = 0, limit }: { skip?: number; limit: number }) {
      return results.find({ jobId }, { sort: { sequence: 1 }, skip, limit });
    },

    async countForJob(jobId: string) {
      return results.countDocuments({ jobId });
    },

    async purgeExpired(now = new Date()) {
      return (await results.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type ResultStore = ReturnType<typeof createResultStore>;
