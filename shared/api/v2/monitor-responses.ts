import { z } from 'zod';
import { JsonValue } from '../json-value';
import { MONITOR_PAGE_STATUSES } from './monitor-request';

/** What the monitor routes answer (server/products/monitors/monitor-view.ts), for the OpenAPI document. */

const Iso = z.string();
const Summary = z.object({
  totalPages: z.int(),
  same: z.int(),
  changed: z.int(),
  new: z.int(),
  removed: z.int(),
  error: z.int(),
});

export const MonitorView = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.enum(['active', 'paused']),
  schedule: z.object({ cron: z.string(), timezone: z.string(), text: z.string().optional() }),
  nextRunAt: Iso.nullable(),
  lastRunAt: Iso.nullable(),
  currentCheckId: z.string().nullable(),
  targets: z.array(z.looseObject({ id: z.string(), type: z.enum(['scrape', 'crawl', 'search']) })),
  webhook: JsonValue,
  notification: JsonValue,
  retentionDays: z.int(),
  estimatedCreditsPerMonth: z.int(),
  lastCheckSummary: Summary.nullable(),
  goal: z.string().nullable(),
  judgeEnabled: z.boolean(),
  /** Settings accepted but not honoured here (email), or a judgment that cannot be made. */
  warning: z.string().optional(),
  createdAt: Iso,
  updatedAt: Iso,
});

export const MonitorCheckView = z.looseObject({
  id: z.string(),
  monitorId: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'partial', 'skipped_no_credits']),
  trigger: z.enum(['scheduled', 'manual']),
  scheduledFor: Iso.nullable(),
  startedAt: Iso.nullable(),
  finishedAt: Iso.nullable(),
  estimatedCredits: z.null(),
  reservedCredits: z.null(),
  actualCredits: z.int().nullable(),
  billingStatus: z.enum(['not_applicable', 'confirmed']),
  summary: Summary,
  targetResults: z.array(
    z.looseObject({ targetId: z.string(), type: z.enum(['scrape', 'crawl', 'search']) }),
  ),
  notificationStatus: z.null(),
  error: z.string().nullable(),
  warnings: z.array(z.string()).optional(),
  createdAt: Iso,
  updatedAt: Iso,
});

const MonitorCheckPageView = z.looseObject({
  id: z.string(),
  targetId: z.string(),
  url: z.string(),
  status: z.enum(MONITOR_PAGE_STATUSES),
  previousScrapeId: z.string().nullable(),
  currentScrapeId: z.string().nullable(),
  statusCode: z.int().nullable(),
  error: z.string().nullable(),
  metadata: JsonValue,
  diff: JsonValue,
  snapshot: JsonValue,
  judgment: JsonValue,
  createdAt: Iso,
});

export const MonitorResponse = z.object({
  success: z.literal(true),
  data: MonitorView,
  warning: z.string().optional(),
});
export const MonitorListResponse = z.object({ success: z.literal(true), data: z.array(MonitorView) });
export const MonitorDeleted = z.object({ success: z.literal(true) });
export const MonitorCheckResponse = z.object({ success: z.literal(true), data: MonitorCheckView });
export const MonitorCheckListResponse = z.object({
  success: z.literal(true),
  data: z.array(MonitorCheckView),
});
export const MonitorCheckDetailResponse = z.object({
  success: z.literal(true),
  data: MonitorCheckView.extend({ pages: z.array(MonitorCheckPageView), next: z.string().nullable() }),
  next: z.string().nullable(),
});
