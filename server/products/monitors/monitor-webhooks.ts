import { MonitorWebhookInput, type MonitorWebhookEvent } from '../../../shared/api/v2/monitor-request';
import type { WebhookOutboxStore } from '../../platform/store';

/**
 * Puts one monitor event in the webhook outbox (the sender signs and retries it like job events):
 * `{ success, type, id: <monitorId>, checkId, data: [...], metadata }`. `monitor.page` goes out for
 * each page that is not `same` (changed, new, removed, error); `monitor.check.completed` after
 * every check, with the check and its summary. `key` makes the event unique.
 */
export async function enqueueMonitorEvent({
  outbox,
  webhook,
  teamId,
  monitorId,
  checkId,
  event,
  key,
  data,
  success = true,
}: {
  outbox: WebhookOutboxStore;
  webhook: unknown;
  teamId: string;
  monitorId: string;
  checkId: string;
  event: MonitorWebhookEvent;
  key: string;
  data: unknown[];
  success?: boolean;
}): Promise<void> {
  if (webhook === undefined || webhook === null) return;
  const config = MonitorWebhookInput.parse(webhook);
  if (!config.events.includes(event)) return;
  await outbox.enqueue({
    _id: `monitor:${checkId}:${key}`,
    teamId,
    url: config.url,
    headers: config.headers,
    body: JSON.stringify({ success, type: event, id: monitorId, checkId, data, metadata: config.metadata }),
  });
}
