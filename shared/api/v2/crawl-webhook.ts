import { z } from 'zod';
import { WebhookHeaders } from './webhook-headers';

export const WEBHOOK_EVENTS = ['completed', 'failed', 'page', 'started'] as const;

/**
 * `webhook` of crawl and batch scrape (contract §14.1): a URL, or a strict object. The URL is
 * checked with the plain URL rule (no protocol is added); the egress policy decides at delivery.
 * Normalised to the object form.
 */
export const WebhookV2 = z
  .union([
    z.url({ protocol: /^https?$/ }),
    z.strictObject({
      url: z.url({ protocol: /^https?$/ }),
      headers: WebhookHeaders.default({}),
      metadata: z.record(z.string(), z.string()).default({}),
      events: z.array(z.enum(WEBHOOK_EVENTS)).default([...WEBHOOK_EVENTS]),
    }),
  ])
  .transform((webhook) =>
    typeof webhook === 'string'
      ? { url: webhook, headers: {}, metadata: {}, events: [...WEBHOOK_EVENTS] }
      : webhook,
  );
export type WebhookV2 = z.infer<typeof WebhookV2>;
