import { createHmac } from 'node:crypto';
import type { Egress } from '../egress';
import type { Log } from '../log';
import { MailMessage, type Mailer, PermanentMailError } from '../notify';
import type { TeamStore, WebhookDelivery, WebhookOutboxStore } from '../store';
import { deliveryHeaders } from './delivery-headers';

/** Firecrawl's schedule: again after 1, 5 and 15 minutes, then dropped (docs/wire-contract.md §14.2). */
export const DEFAULT_RETRY_DELAYS_MS = [60_000, 300_000, 900_000];
/** Receivers must answer within this (Firecrawl: 10 s). */
export const DELIVERY_TIMEOUT_MS = 10_000;
const POLL_MS = 250;
const UNAVAILABLE_POLL_MS = 2_000;
const LEASE_MS = 30_000;
const IN_FLIGHT = 4;

/** `sha256=<hex HMAC-SHA256 of the raw body>`, as docs.firecrawl.dev documents `X-Firecrawl-Signature`. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Sends the outbox: each delivery signed with its team's secret, through the guarded egress (no
 * redirects: a 3xx is a failure), retried on network errors, timeouts, 408, 429 and 5xx on the
 * schedule, never on other 4xx. Any instance may send any delivery; leases keep them apart.
 * Slack-compatible deliveries go the same way unsigned; e-mail deliveries go to the mailer
 * (retried unless the SMTP server refuses for good, 5xx).
 */
export function createWebhookSender({
  outbox,
  teams,
  egress,
  log,
  retryDelaysMs = DEFAULT_RETRY_DELAYS_MS,
  mailer,
}: {
  outbox: WebhookOutboxStore;
  teams: TeamStore;
  egress: Egress;
  log: Log;
  retryDelaysMs?: readonly number[];
  /** Sends the `email` deliveries; without it they are dropped with the reason. */
  mailer?: Mailer | undefined;
}) {
  let inFlight = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  /** Sends an e-mail delivery; a failure says whether a retry can help. */
  const sendMail = async (
    delivery: WebhookDelivery,
  ): Promise<{ error: string; retry: boolean } | undefined> => {
    if (mailer === undefined) return { error: 'no SMTP server is configured (SMTP_URL)', retry: false };
    let queued: unknown;
    try {
      queued = JSON.parse(delivery.body);
    } catch {
      queued = undefined;
    }
    const message = MailMessage.safeParse(queued);
    if (!message.success) return { error: 'the queued e-mail is malformed', retry: false };
    try {
      await mailer.send(message.data, delivery._id);
      return undefined;
    } catch (err) {
      return {
        error: err instanceof Error ? err.message : String(err),
        retry: !(err instanceof PermanentMailError),
      };
    }
  };

  const deliver = async (delivery: WebhookDelivery & { leaseToken?: string }) => {
    const token = delivery.leaseToken ?? '';
    let failure: { error: string; retry: boolean };
    try {
      if (delivery.kind === 'email') {
        const mailFailure = await sendMail(delivery);
        if (mailFailure === undefined) {
          await outbox.markDelivered(delivery._id, token);
          return;
        }
        throw Object.assign(new Error(mailFailure.error), { retry: mailFailure.retry });
      }
      // A Slack-compatible incoming webhook takes the JSON as it is: no Firecrawl signature or id.
      const signed = delivery.kind !== 'slack';
      const secret = signed ? await teams.webhookSecret(delivery.teamId) : undefined;
      const response = await egress.post(delivery.url, {
        body: delivery.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        headers: deliveryHeaders(delivery.headers, {
          'content-type': 'application/json',
          ...(signed ? { 'webhook-id': delivery._id } : {}),
          ...(secret === undefined ? {} : { 'x-firecrawl-signature': signWebhook(secret, delivery.body) }),
        }),
      });
      if (response.status >= 200 && response.status < 300) {
        await outbox.markDelivered(delivery._id, token);
        return;
      }
      const retry = response.status === 408 || response.status === 429 || response.status >= 500;
      failure = { error: `HTTP ${response.status}`, retry };
    } catch (err) {
      const retry = (err as { retry?: boolean }).retry ?? !isBlocked(err);
      failure = { error: err instanceof Error ? err.message : String(err), retry };
    }
    const delay = retryDelaysMs[delivery.attempts - 1];
    const retryAt = failure.retry && delay !== undefined ? new Date(Date.now() + delay) : undefined;
    if (retryAt === undefined)
      log.warn('webhook delivery dropped', { id: delivery._id, error: failure.error });
    await outbox.markFailed(delivery._id, token, failure.error, retryAt);
  };

  const tick = async () => {
    while (!stopped && inFlight < IN_FLIGHT) {
      const delivery = await outbox.claimDue({ leaseMs: LEASE_MS });
      if (delivery === undefined) return;
      inFlight += 1;
      void deliver(delivery)
        .catch((err: unknown) => log.warn('webhook delivery failed', { error: String(err) }))
        .finally(() => {
          inFlight -= 1;
        });
    }
  };

  let unavailable = false;
  const loop = () => {
    if (stopped) return;
    tick()
      .then(() => {
        unavailable = false;
      })
      .catch((err: unknown) => {
        if (!unavailable) log.warn('webhook outbox unavailable', { error: String(err) });
        unavailable = true;
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, unavailable ? UNAVAILABLE_POLL_MS : POLL_MS);
      });
  };

  return {
    start: loop,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;

const isBlocked = (err: unknown) =>
  err instanceof Error && (err as { code?: string }).code === 'SSRF_BLOCKED';
