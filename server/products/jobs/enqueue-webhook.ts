import type { JobKind, WebhookOutboxStore } from '../../platform/store';
import type { JobSpec } from './job-spec';

export type WebhookEvent = 'started' | 'page' | 'completed' | 'failed';

/** The `type` prefix of each job kind's events, as Firecrawl names them. */
const EVENT_PREFIX: Record<JobKind, string> = {
  crawl: 'crawl',
  batch: 'batch_scrape',
  extract: 'extract',
  llmstxt: 'llmstxt',
  agent: 'agent',
  deepresearch: 'deep_research',
};

/** A webhook as a request normalised it: where to, its headers and metadata, which events. */
export interface WebhookTarget<Event extends string> {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  events: readonly Event[];
}

/**
 * Puts one job event in the outbox, in Firecrawl's payload (docs/wire-contract.md §14.2):
 * `{ success, type: "crawl.page" | "batch_scrape.started" | "agent.action" | …, id, data, metadata }`,
 * unless the webhook leaves the event out. `key` makes the event unique (a page that runs twice
 * sends one `page` event).
 */
export async function enqueueJobEvent<Event extends string>({
  outbox,
  job,
  webhook,
  prefix,
  event,
  key,
  data = [],
  error,
}: {
  outbox: WebhookOutboxStore;
  job: { _id: string; teamId: string };
  webhook: WebhookTarget<Event> | undefined;
  /** The `type`'s first part: `crawl`, `batch_scrape`, `agent`, … */
  prefix: string;
  event: Event;
  key: string;
  data?: unknown[];
  error?: string | undefined;
}): Promise<void> {
  if (webhook === undefined || !webhook.events.includes(event)) return;
  await outbox.enqueue({
    _id: `${job._id}:${key}`,
    teamId: job.teamId,
    url: webhook.url,
    headers: webhook.headers,
    body: JSON.stringify({
      success: event !== 'failed',
      type: `${prefix}.${event}`,
      id: job._id,
      data,
      metadata: webhook.metadata,
      ...(error === undefined ? {} : { error }),
    }),
  });
}

/** A crawl, batch, extract or llms.txt job's event (see enqueueJobEvent). */
export async function enqueueWebhook({
  job,
  spec,
  ...event
}: {
  outbox: WebhookOutboxStore;
  job: { _id: string; teamId: string; kind: JobKind };
  spec: Pick<JobSpec, 'webhook'>;
  event: WebhookEvent;
  key: string;
  data?: unknown[];
  error?: string;
}): Promise<void> {
  await enqueueJobEvent({ ...event, job, webhook: spec.webhook, prefix: EVENT_PREFIX[job.kind] });
}
