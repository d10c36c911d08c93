import { z } from 'zod';
import { commonFields } from '../common-fields';
import { queryCount } from '../query-count';
import { MAX_URL_LENGTH } from '../url-input';
import { webhookOption } from './crawl-webhook';

/** Targets one monitor may hold, URLs of its scrape targets together, and queries per search target. */
export const MAX_MONITOR_TARGETS = 20;
export const MAX_MONITOR_SCRAPE_URLS = 100;
export const MAX_MONITOR_QUERIES = 10;
/** Results of one search query a check follows (each is a scrape). */
export const MAX_MONITOR_SEARCH_RESULTS = 20;
export const DEFAULT_MONITOR_SEARCH_RESULTS = 5;
/** A crawl target's page limit: its default, and the most a check may crawl. */
export const DEFAULT_MONITOR_CRAWL_LIMIT = 100;
export const MAX_MONITOR_CRAWL_LIMIT = 1_000;
export const DEFAULT_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 365;
export const MAX_EMAIL_RECIPIENTS = 20;

export const MONITOR_WEBHOOK_EVENTS = ['monitor.page', 'monitor.check.completed'] as const;
export type MonitorWebhookEvent = (typeof MONITOR_WEBHOOK_EVENTS)[number];

/** What `schedule` holds on create and update: exactly one of `cron` and `text` (both when they agree). */
export const MonitorScheduleInput = z.strictObject({
  cron: z.string().trim().min(1).max(200).optional(),
  text: z.string().trim().min(1).max(200).optional(),
  timezone: z.string().trim().min(1).max(100).default('UTC'),
});
export type MonitorScheduleInput = z.infer<typeof MonitorScheduleInput>;

const TargetId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, { error: 'A target id may hold letters, digits and _ . : - only' });
/** Options objects are checked in full by the scrape and crawl schemas when the monitor is saved. */
const OptionsObject = z.record(z.string(), z.unknown());
const TargetUrl = z.string().min(1).max(MAX_URL_LENGTH);
const Domains = z.array(z.string().min(1).max(253)).max(50);

export const MonitorScrapeTargetInput = z.strictObject({
  id: TargetId.optional(),
  type: z.literal('scrape'),
  urls: z.array(TargetUrl).min(1).max(MAX_MONITOR_SCRAPE_URLS),
  scrapeOptions: OptionsObject.optional(),
});

export const MonitorCrawlTargetInput = z.strictObject({
  id: TargetId.optional(),
  type: z.literal('crawl'),
  url: TargetUrl,
  crawlOptions: OptionsObject.optional(),
  scrapeOptions: OptionsObject.optional(),
});

export const MonitorSearchTargetInput = z.strictObject({
  id: TargetId.optional(),
  type: z.literal('search'),
  queries: z.array(z.string().trim().min(1).max(500)).min(1).max(MAX_MONITOR_QUERIES),
  searchWindow: z.enum(['5m', '15m', '1h', '6h', '24h', '7d']).optional(),
  includeDomains: Domains.optional(),
  excludeDomains: Domains.optional(),
  maxResults: z.int().min(1).max(MAX_MONITOR_SEARCH_RESULTS).optional(),
});

export const MonitorTargetInput = z.discriminatedUnion('type', [
  MonitorScrapeTargetInput,
  MonitorCrawlTargetInput,
  MonitorSearchTargetInput,
]);
export type MonitorTargetInput = z.infer<typeof MonitorTargetInput>;

const MonitorTargets = z
  .array(MonitorTargetInput)
  .min(1)
  .max(MAX_MONITOR_TARGETS)
  .superRefine((targets, ctx) => {
    const urls = targets.reduce(
      (sum, target) => sum + (target.type === 'scrape' ? target.urls.length : 0),
      0,
    );
    if (urls > MAX_MONITOR_SCRAPE_URLS) {
      ctx.addIssue({
        code: 'custom',
        message: `A monitor may scrape at most ${MAX_MONITOR_SCRAPE_URLS} URLs across its scrape targets (got ${urls})`,
      });
    }
    const ids = targets.flatMap((target) => (target.id === undefined ? [] : [target.id]));
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) {
      ctx.addIssue({ code: 'custom', message: `Target id "${repeated}" is used twice` });
    }
  });

/** `webhook`: a URL, or `{ url, headers, metadata, events }` with the monitor's event names. */
export const MonitorWebhookInput = webhookOption(MONITOR_WEBHOOK_EVENTS);
export type MonitorWebhookInput = z.infer<typeof MonitorWebhookInput>;

export const MonitorNotificationInput = z.strictObject({
  email: z
    .strictObject({
      enabled: z.boolean().default(false),
      recipients: z.array(z.email()).max(MAX_EMAIL_RECIPIENTS).default([]),
      includeDiffs: z.boolean().default(false),
    })
    .optional(),
  /** Tabhive's addition: a Slack-compatible incoming webhook told of each check with changes. */
  slack: z
    .strictObject({
      webhookUrl: z.url({ protocol: /^https?$/ }).max(2_048),
      enabled: z.boolean().default(true),
    })
    .optional(),
});
export type MonitorNotificationInput = z.infer<typeof MonitorNotificationInput>;

const Name = z.string().trim().min(1).max(200);
const RetentionDays = z.int().min(1).max(MAX_RETENTION_DAYS);
const Goal = z.string().trim().min(1).max(2_000);

/** Body of `POST /v2/monitor`; `origin` and `integration` are what SDKs add to every body (docs/wire-contract.md §1.3). */
export const CreateMonitorRequest = z.strictObject({
  origin: commonFields.origin,
  integration: commonFields.integration,
  name: Name,
  schedule: MonitorScheduleInput,
  webhook: MonitorWebhookInput.optional(),
  notification: MonitorNotificationInput.optional(),
  targets: MonitorTargets,
  retentionDays: RetentionDays.default(DEFAULT_RETENTION_DAYS),
  goal: Goal.optional(),
  judgeEnabled: z.boolean().default(false),
});
export type CreateMonitorRequest = z.infer<typeof CreateMonitorRequest>;

/** Body of `PATCH /v2/monitor/:id`: what it names changes; `null` clears webhook, notification and goal. */
export const UpdateMonitorRequest = z.strictObject({
  origin: commonFields.origin,
  integration: commonFields.integration,
  name: Name.optional(),
  status: z.enum(['active', 'paused']).optional(),
  schedule: MonitorScheduleInput.optional(),
  webhook: MonitorWebhookInput.nullable().optional(),
  notification: MonitorNotificationInput.nullable().optional(),
  targets: MonitorTargets.optional(),
  retentionDays: RetentionDays.optional(),
  goal: Goal.nullable().optional(),
  judgeEnabled: z.boolean().optional(),
});
export type UpdateMonitorRequest = z.infer<typeof UpdateMonitorRequest>;

const QueryInt = (min: number, max: number, fallback: number) => queryCount(min, max).default(fallback);

/** `GET /v2/monitor` and `GET /v2/monitor/:id/checks`: `limit` and `offset`. */
export const MonitorListQuery = z.object({
  limit: QueryInt(1, 100, 50),
  offset: QueryInt(0, 1_000_000, 0),
});
export type MonitorListQuery = z.infer<typeof MonitorListQuery>;

export const MONITOR_PAGE_STATUSES = ['same', 'changed', 'new', 'removed', 'error'] as const;
export type MonitorPageStatus = (typeof MONITOR_PAGE_STATUSES)[number];

/** `GET /v2/monitor/:id/checks/:checkId`: a page of the check's pages, optionally of one status. */
export const MonitorCheckQuery = z.object({
  limit: QueryInt(1, 1_000, 100),
  skip: QueryInt(0, 1_000_000, 0),
  status: z.enum(MONITOR_PAGE_STATUSES).optional(),
});
export type MonitorCheckQuery = z.infer<typeof MonitorCheckQuery>;
