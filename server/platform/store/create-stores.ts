import { createAgentTraceStore } from './stores/agent-trace-store';
import type { Database } from './database';
import { createApiKeyStore } from './stores/api-key-store';
import { createBrowserNodeTokenStore } from './stores/browser-node-token-store';
import { createBrowserProfileStore } from './stores/browser-profile-store';
import { createBrowserRegistrationStore } from './stores/browser-registration-store';
import { createBrowserSessionStore } from './stores/browser-session-store';
import { createCacheStore } from './stores/cache-store';
import { createChangeSnapshotStore } from './stores/change-snapshot-store';
import { createConcurrencySlotStore } from './stores/concurrency-slot-store';
import { createCrawlNoteStore } from './stores/crawl-note-store';
import { createCreditLedgerStore } from './stores/credit-ledger-store';
import { createEmailSubscriptionStore } from './stores/email-subscription-store';
import { createInstanceStore } from './stores/instance-store';
import { createJobStore } from './stores/job-store';
import { createMapIndexStore } from './stores/map-index-store';
import { createMonitorCheckStore } from './stores/monitor-check-store';
import { createMonitorStore } from './stores/monitor-store';
import { createPageTaskStore } from './stores/page-task-store';
import { createPairingCodeStore } from './stores/pairing-code-store';
import { createRateWindowStore } from './stores/rate-window-store';
import { createRelayedTaskStore } from './stores/relayed-task-store';
import { createResultStore } from './stores/result-store';
import { createSitemapFetchStore } from './stores/sitemap-fetch-store';
import { createSearchIndexStore } from './stores/search-index-store';
import { createSessionReplayStore } from './stores/session-replay-store';
import { createTeamStore } from './stores/team-store';
import { createUsageMonthStore } from './stores/usage-month-store';
import { createWebhookOutboxStore } from './stores/webhook-outbox-store';

/** Every store over one database. Each owns one collection, its indexes and its queries. */
export function createStores(
  database: Database,
  {
    instanceId,
  }: {
    /** This server instance's id, where work it holds is recorded (credit reservations). */
    instanceId?: string;
  } = {},
) {
  const teams = createTeamStore(database);
  const usageMonths = createUsageMonthStore(database);
  return {
    cache: createCacheStore(database),
    results: createResultStore(database),
    jobs: createJobStore(database),
    pageTasks: createPageTaskStore(database),
    mapIndex: createMapIndexStore(database),
    sitemapFetches: createSitemapFetchStore(database),
    changeSnapshots: createChangeSnapshotStore(database),
    teams,
    apiKeys: createApiKeyStore(database),
    creditLedger: createCreditLedgerStore(database, teams, usageMonths, instanceId),
    usageMonths,
    browserRegistrations: createBrowserRegistrationStore(database),
    pairingCodes: createPairingCodeStore(database),
    webhookOutbox: createWebhookOutboxStore(database),
    crawlNotes: createCrawlNoteStore(database),
    searchIndex: createSearchIndexStore(database),
    rateWindows: createRateWindowStore(database),
    browserProfiles: createBrowserProfileStore(database),
    browserSessions: createBrowserSessionStore(database),
    sessionReplays: createSessionReplayStore(database),
    agentTraces: createAgentTraceStore(database),
    monitors: createMonitorStore(database),
    monitorChecks: createMonitorCheckStore(database),
    emailSubscriptions: createEmailSubscriptionStore(database),
    browserNodeTokens: createBrowserNodeTokenStore(database),
    relayedTasks: createRelayedTaskStore(database),
    concurrencySlots: createConcurrencySlotStore(database),
    instances: createInstanceStore(database),
  };
}

export type Stores = ReturnType<typeof createStores>;

/** Creates every store's indexes; safe to run at every start. */
export async function ensureIndexes(stores: Stores): Promise<void> {
  for (const store of Object.values(stores)) await store.ensureIndexes();
}

/** Longer than any page can run (timeouts are at most minutes) plus its retries. */
const STALE_RESERVATION_MS = 60 * 60_000;

/** Removes what outlived its retention; the backends' TTL indexes are only a bonus. */
export async function purgeExpired(stores: Stores, now = new Date()): Promise<number> {
  const counts = await Promise.all([
    stores.cache.purgeExpired(now),
    stores.results.purgeExpired(now),
    stores.jobs.purgeExpired(now),
    stores.mapIndex.purgeExpired(now),
    stores.sitemapFetches.purgeExpired(now),
    stores.webhookOutbox.purgeExpired(now),
    stores.crawlNotes.purgeExpired(now),
    stores.searchIndex.purgeExpired(now),
    stores.pairingCodes.purgeExpired(now),
    stores.rateWindows.purgeExpired(now),
    stores.relayedTasks.purgeExpired(now),
    stores.concurrencySlots.purgeExpired(now),
    stores.instances.purgeExpired(now),
    stores.browserSessions.purgeExpired(now),
    stores.sessionReplays.purgeExpired(now),
    stores.agentTraces.purgeExpired(now),
    // A reservation this old belongs to work whose process died before it could settle.
    stores.creditLedger.releaseStale(new Date(now.getTime() - STALE_RESERVATION_MS)),
  ]);
  return counts.reduce((sum, count) => sum + count, 0);
}
