import type { AgentWebhookEvent } from '../../../shared/api/v2/agent-request';
import type { WebhookOutboxStore } from '../../platform/store';
import { enqueueJobEvent } from '../jobs';
import type { AgentSpec } from './agent-spec';

/**
 * Puts one agent event in the webhook outbox (sent, signed and retried by the webhook sender), in
 * the payload every Tabhive job event has: `{ success, type: "agent.<event>", id, data, metadata }`.
 * `completed` and `failed` go through createInProcessJobs when the job settles; this sends
 * `started`, `action` and `cancelled`. `key` makes the event unique.
 */
export async function enqueueAgentWebhook({
  spec,
  ...event
}: {
  outbox: WebhookOutboxStore;
  job: { _id: string; teamId: string };
  spec: Pick<AgentSpec, 'webhook'>;
  event: AgentWebhookEvent;
  key: string;
  data?: unknown[];
  error?: string;
}): Promise<void> {
  await enqueueJobEvent({ ...event, webhook: spec.webhook, prefix: 'agent' });
}

/** The agent webhook as createInProcessJobs reads one: only its `completed` and `failed` events. */
export function settleWebhook(spec: AgentSpec) {
  const webhook = spec.webhook;
  if (webhook === undefined) return undefined;
  const events = webhook.events.filter(
    (event): event is 'completed' | 'failed' => event === 'completed' || event === 'failed',
  );
  return { url: webhook.url, headers: webhook.headers, metadata: webhook.metadata, events };
}
