/**
 * The store: MongoDB or the embedded database, behind one collection interface, and a typed store per
 * record kind.
 */
export { approximateBytes, createBoundedLru } from './bounded-lru';
export { createStores } from './create-stores';
export type { Stores } from './create-stores';
export { StoreUnavailableError } from './database';
export type { Collection, Database, Filter, StoredDocument } from './database';
export { DirectoryLockedError } from './embedded/directory-lock';
export { embeddedStoreHolder, openDatabase } from './open-database';
export { prepareStores } from './prepare-stores';
export type { AgentTraceStore, StoredTraceEvent } from './stores/agent-trace-store';
export type { ApiKeyStore } from './stores/api-key-store';
export type { BrowserNodeToken, BrowserNodeTokenStore } from './stores/browser-node-token-store';
export type { BrowserProfileStore, StoredBrowserProfile } from './stores/browser-profile-store';
export type { BrowserRegistrationStore } from './stores/browser-registration-store';
export type { BrowserSessionStore, StoredBrowserSession } from './stores/browser-session-store';
export { PUBLIC_SCOPE } from './stores/cache-store';
export type { CacheStore } from './stores/cache-store';
export type { ChangeSnapshotStore } from './stores/change-snapshot-store';
export type { ConcurrencySlotStore } from './stores/concurrency-slot-store';
export type { CreditLedgerStore, LedgerEntry } from './stores/credit-ledger-store';
export type { InstanceRecord, InstanceStore } from './stores/instance-store';
export type { Job, JobKind, JobStore } from './stores/job-store';
export type { MapIndexStore, SeenUrl } from './stores/map-index-store';
export type {
  MonitorCheckStore,
  MonitorPageStatus,
  MonitorTargetOutcome,
  StoredMonitorCheck,
  StoredMonitorPage,
} from './stores/monitor-check-store';
export type {
  MonitorChanges,
  MonitorStore,
  MonitorSummaryCounts,
  StoredMonitor,
} from './stores/monitor-store';
export type { PageTask, PageTaskState, PageTaskStore } from './stores/page-task-store';
export type { PairingCodeStore } from './stores/pairing-code-store';
export type { RateWindowStore } from './stores/rate-window-store';
export type { RelayedTask, RelayedTaskStore } from './stores/relayed-task-store';
export type { ResultStore } from './stores/result-store';
export type { IndexedPageSource, SearchIndexStore } from './stores/search-index-store';
export type { SitemapFetchStore } from './stores/sitemap-fetch-store';
export type { ReplayPageSummary, SessionReplayStore, StoredReplayChunk } from './stores/session-replay-store';
export type { TeamRecord, TeamStore } from './stores/team-store';
export { attributeUsage, maskApiKey, usageAttribution } from './stores/usage-attribution';
export { monthOf } from './stores/usage-month-store';
export type { UsageMonth, UsageMonthStore } from './stores/usage-month-store';
export type { DeliveryKind, WebhookDelivery, WebhookOutboxStore } from './stores/webhook-outbox-store';
export type {
  EmailSubscriptionStatus,
  EmailSubscriptionStore,
  StoredEmailSubscription,
} from './stores/email-subscription-store';
