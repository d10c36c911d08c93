import type { JobKind } from '../store/stores/job-store';
import type { WebhookOutboxStore } from '../store/stores/webhook-outbox-store';
import type { JobSpec } from '../jobs/job-spec';

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

/**
 * Puts one job event in the outbox, in Firecrawl's payload (contract §14.2):
 * `{ success, type: "crawl.page" | "batch_scrape.started" | …, id, data, metadata }`. `key` makes
 * the event unique (a page that runs twice sends one `page` event).
 */
export async function enqueueWebhook({
  outbox,
  job,
  spec,
  event,
  key,
  data = [],
  error,
}: {
  outbox: WebhookOutboxStore;
  job: { _id: string; teamId: string; kind: JobKind };
  spec: Pick<JobSpec, 'webhook'>;
  event: WebhookEvent;
  key: string;
  data?: unknown[];
  error?: string;
}): Promise<void> {
  const webhook = spec.webhook;
  if (webhook === undefined || !webhook.events.includes(event)) return;
  const type = `${EVENT_PREFIX[job.kind]}.${event}`;
  const body = JSON.stringify({
    success: event !== 'failed',
    type,
    id: job._id,
    data,
    metadata: webhook.metadata,
    ...(error === undefined ? {} : { error }),
  });
  await outbox.enqueue({
    _id: `${job._id}:${key}`,
    teamId: job.teamId,
    url: webhook.url,
    headers: webhook.headers,
    body,
  });
}
