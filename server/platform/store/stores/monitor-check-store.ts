import { insertIfAbsent, type Collection, type Database, type StoredDocument } from '../database';
import type { MonitorSummaryCounts } from './monitor-store';

export type MonitorCheckStatus = 'running' | 'completed' | 'failed' | 'partial' | 'skipped_no_credits';
export type MonitorPageStatus = 'same' | 'changed' | 'new' | 'removed' | 'error';

export interface MonitorTargetOutcome {
  targetId: string;
  type: 'scrape' | 'crawl' | 'search';
  /** Scrape targets: the scrape ids of their pages. */
  expectedJobs?: string[];
  /** Crawl targets: the crawl job that ran. */
  crawlId?: string;
  /** Search targets. */
  searchCompleted?: boolean;
  resultCount?: number;
  searchCredits?: number;
  /** Why the whole target failed, when it did. */
  error?: string;
}

export interface StoredMonitorCheck extends StoredDocument {
  monitorId: string;
  teamId: string;
  status: MonitorCheckStatus;
  trigger: 'scheduled' | 'manual';
  scheduledFor: Date | null;
  startedAt: Date;
  finishedAt?: Date;
  summary: MonitorSummaryCounts;
  targetResults: MonitorTargetOutcome[];
  actualCredits?: number;
  error?: string;
  warnings?: string[];
  /** Per target, the URLs this check saw: the next check's base for `removed`. */
  seen?: Array<{ targetId: string; urls: string[] }>;
  createdAt: Date;
  updatedAt: Date;
  /** createdAt + the monitor's retentionDays: then the check and its pages are deleted. */
  expiresAt: Date;
}

export interface StoredMonitorPage extends StoredDocument {
  checkId: string;
  monitorId: string;
  teamId: string;
  /** Position in the check, for stable pages of results. */
  order: number;
  targetId: string;
  url: string;
  status: MonitorPageStatus;
  statusCode?: number;
  error?: string;
  scrapeId?: string;
  previousScrapeId?: string;
  metadata?: Record<string, unknown>;
  diff?: { text?: string; json?: unknown };
  snapshot?: { json?: unknown };
  judgment?: unknown;
  createdAt: Date;
  expiresAt: Date;
}

const FINISHED: MonitorCheckStatus[] = ['completed', 'partial', 'failed'];

/** A monitor's checks (`monitor_checks`) and the pages each check reported (`monitor_check_pages`). */
export function createMonitorCheckStore(database: Database) {
  const checks: Collection<StoredMonitorCheck> = database.collection('monitor_checks');
  const pages: Collection<StoredMonitorPage> = database.collection('monitor_check_pages');

  return {
    async ensureIndexes() {
      await checks.createIndex({ name: 'monitor_created', keys: { monitorId: 1, createdAt: -1 } });
      await checks.createIndex({ name: 'expires', keys: { expiresAt: 1 } });
      await pages.createIndex({ name: 'check_order', keys: { checkId: 1, order: 1 } });
      await pages.createIndex({ name: 'check_status_order', keys: { checkId: 1, status: 1, order: 1 } });
      await pages.createIndex({ name: 'expires', keys: { expiresAt: 1 } });
    },

    /**
     * Stores a new check unless one with its id exists: a scheduled run's id is derived from the
     * monitor and the time it was due, so this insert is what makes the run happen once.
     */
    claim(check: StoredMonitorCheck): Promise<boolean> {
      return insertIfAbsent(checks, check);
    },

    async finish(
      id: string,
      fields: Pick<StoredMonitorCheck, 'status' | 'summary' | 'targetResults'> &
        Partial<Pick<StoredMonitorCheck, 'actualCredits' | 'error' | 'warnings' | 'seen'>>,
      now = new Date(),
    ): Promise<StoredMonitorCheck | undefined> {
      return checks.findOneAndUpdate(
        { _id: id, status: 'running' },
        { $set: { ...fields, finishedAt: now, updatedAt: now } },
      );
    },

    /** A check whose instance stopped holding its lease (it died): failed, so it no longer shows as running. */
    async abandon(id: string, reason: string, now = new Date()): Promise<void> {
      await checks.updateOne(
        { _id: id, status: 'running' },
        { $set: { status: 'failed', error: reason, finishedAt: now, updatedAt: now } },
      );
    },

    get(monitorId: string, id: string) {
      return checks.findOne({ _id: id, monitorId });
    },

    list(monitorId: string, { offset, limit }: { offset: number; limit: number }) {
      return checks.find({ monitorId }, { sort: { createdAt: -1, _id: 1 }, skip: offset, limit });
    },

    /** The monitor's latest check that ran to its end: the base of the next check's `removed` pages. */
    latestFinished(monitorId: string) {
      return checks.findOne({ monitorId, status: { $in: FINISHED } }, { sort: { createdAt: -1 } });
    },

    async addPages(list: StoredMonitorPage[]): Promise<void> {
      if (list.length > 0) await pages.insertManyIfAbsent(list);
    },

    pagesOf(
      checkId: string,
      { skip, limit, status }: { skip: number; limit: number; status?: MonitorPageStatus },
    ) {
      return pages.find(
        { checkId, ...(status === undefined ? {} : { status }) },
        { sort: { order: 1 }, skip, limit },
      );
    },

    countPages(checkId: string, status?: MonitorPageStatus) {
      return pages.countDocuments({ checkId, ...(status === undefined ? {} : { status }) });
    },

    /** Every page of a check (for the previous scrape ids); bounded by the monitor's own limits. */
    allPages(checkId: string) {
      return pages.find({ checkId }, { sort: { order: 1 } });
    },

    async removeForMonitor(monitorId: string): Promise<void> {
      await pages.deleteMany({ monitorId });
      await checks.deleteMany({ monitorId });
    },

    /** Checks and pages past their monitor's retention. */
    async purgeExpired(now = new Date()): Promise<number> {
      const [pageCount, checkCount] = await Promise.all([
        pages.deleteMany({ expiresAt: { $lt: now } }),
        checks.deleteMany({ expiresAt: { $lt: now } }),
      ]);
      return pageCount.deleted + checkCount.deleted;
    },
  };
}

export type MonitorCheckStore = ReturnType<typeof createMonitorCheckStore>;
