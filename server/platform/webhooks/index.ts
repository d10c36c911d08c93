/** Webhook delivery: the outbox sender, its signatures and retries. */
export { createWebhookSender } from './create-webhook-sender';
export { writeWebhookSecret } from './write-webhook-secret';
